package io.ketama.quarkus.deployment;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * One server pool of the vectors core records from real twemproxy (nutcracker 0.5.0), read from
 * core's test resources (their README: the format and how they were recorded): its servers as
 * written, its hash tag, the owner (an index into the servers) of every recorded key, and the owners
 * after each recorded ejection.
 *
 * @param servers  the server lines as written ({@code host:port:weight [name]})
 * @param hashTag  the pool's {@code hash_tag}, or null
 * @param owners   the owner of each key of {@link #keys()} with every server up
 * @param ejected  the owners after ejecting the servers listed in the key ("4", then "4 2"), in that order
 */
record RecordedPool(List<String> servers, String hashTag, int[] owners, Map<String, int[]> ejected) {

    private static final Path DIR = Path.of("..", "core", "src", "test", "resources", "ketama-family");

    /** The 6,000 recorded keys, in the order of every pool's owners. */
    static List<String> keys() {
        List<String> keys = new ArrayList<>();
        try (BufferedReader in = open("keys.txt.gz")) {
            String line;
            while ((line = in.readLine()) != null) {
                keys.add(line);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return keys;
    }

    /** The pool recorded as {@code config STYLE NAME} in {@code twemproxy.vectors.gz}. */
    static RecordedPool twemproxy(String style, String name) {
        String header = "config " + style + " " + name;
        try (BufferedReader in = open("twemproxy.vectors.gz")) {
            String line;
            while ((line = in.readLine()) != null && !line.equals(header)) {
                // skip to the pool
            }
            if (line == null) {
                throw new IllegalArgumentException("no pool '" + header + "' in " + DIR.resolve("twemproxy.vectors.gz"));
            }
            List<String> servers = new ArrayList<>();
            String tag = null;
            int[] owners = null;
            Map<String, int[]> ejected = new LinkedHashMap<>();
            String ejection = null;
            while (!(line = in.readLine()).equals("end")) {
                if (line.startsWith("server ")) {
                    servers.add(line.substring("server ".length()));
                } else if (line.startsWith("hash_tag ")) {
                    tag = line.substring("hash_tag ".length());
                } else if (line.startsWith("ejected ")) {
                    ejection = line.substring("ejected ".length());
                } else if (line.equals("owners")) {
                    int[] read = owners(in);
                    if (ejection == null) {
                        owners = read;
                    } else {
                        ejected.put(ejection, read);
                    }
                }
            }
            return new RecordedPool(List.copyOf(servers), tag, owners, ejected);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Server {@code i}'s weight, as written. */
    int weight(int i) {
        return Integer.parseInt(servers.get(i).split(" ")[0].split(":")[2]);
    }

    /** What a member standing for server {@code i} gives as its node id: the name, else {@code host:port}. */
    String nodeId(int i) {
        String[] parts = servers.get(i).split(" ");
        if (parts.length > 1) {
            return parts[1];
        }
        String[] address = parts[0].split(":");
        return address[0] + ":" + address[1];
    }

    /** Each ring member's index in this pool's server list, found by its node id. */
    Map<java.util.UUID, Integer> serverOf(io.ketama.quarkus.RingSnapshot snapshot) {
        Map<java.util.UUID, Integer> server = new java.util.HashMap<>();
        for (io.ketama.quarkus.MemberInfo m : snapshot.members()) {
            for (int i = 0; i < servers.size(); i++) {
                if (nodeId(i).equals(m.nodeId())) {
                    server.put(m.member().getUuid(), i);
                }
            }
        }
        if (server.size() != snapshot.members().size()) {
            throw new AssertionError("not every ring member stands for a server of the pool: " + snapshot.members());
        }
        return server;
    }

    private static int[] owners(BufferedReader in) throws IOException {
        List<Integer> read = new ArrayList<>();
        while (read.size() < 6_000) {
            for (String index : in.readLine().trim().split(" ")) {
                read.add(Integer.parseInt(index));
            }
        }
        return read.stream().mapToInt(Integer::intValue).toArray();
    }

    private static BufferedReader open(String file) throws IOException {
        Path path = DIR.resolve(file);
        if (!Files.isReadable(path)) {
            throw new IllegalStateException(path.toAbsolutePath() + " is not readable: these tests run from the deployment module "
                    + "of a full clone, beside core");
        }
        return new BufferedReader(new InputStreamReader(new GZIPInputStream(Files.newInputStream(path)), StandardCharsets.UTF_8));
    }
}
