package io.ketama.core;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * The vector files recorded from the C programs by {@code core/src/test/vectors/record-*.sh}, in
 * {@code ketama-family/}: the keys ({@code keys.txt.gz}, one per line, UTF-8) and, per
 * configuration, the servers as written, the owner of every key (an index into the servers), the
 * owners after ejections (twemproxy) and three failover candidates of the first keys (libmemcached).
 */
public final class FamilyVectors {

    /** One recorded configuration. */
    public record Config(String style, String name, String hashTag, List<String> servers, int[] owners,
                  Map<List<Integer>, int[]> afterEjection, Map<Integer, int[]> failover) {

        @Override
        public String toString() {
            return style + " " + name;
        }
    }

    private FamilyVectors() {
    }

    public static List<String> keys() {
        return lines("/ketama-family/keys.txt.gz");
    }

    public static List<Config> read(String resource) {
        List<Config> out = new ArrayList<>();
        List<String> lines = lines(resource);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (!line.startsWith("config ")) {
                continue;
            }
            String[] head = line.split(" ");
            String tag = null;
            List<String> servers = new ArrayList<>();
            int[] owners = null;
            Map<List<Integer>, int[]> ejected = new LinkedHashMap<>();
            Map<Integer, int[]> failover = new LinkedHashMap<>();
            List<Integer> ejectedNow = null;
            for (i++; !lines.get(i).equals("end"); i++) {
                String l = lines.get(i);
                if (l.startsWith("hash_tag ")) {
                    tag = l.substring(9);
                } else if (l.startsWith("server ")) {
                    servers.add(l.substring(7));
                } else if (l.startsWith("ejected ")) {
                    ejectedNow = new ArrayList<>();
                    for (String s : l.substring(8).split(" ")) {
                        ejectedNow.add(Integer.parseInt(s));
                    }
                } else if (l.equals("owners")) {
                    List<Integer> values = new ArrayList<>();
                    while (i + 1 < lines.size() && !lines.get(i + 1).isEmpty() && Character.isDigit(lines.get(i + 1).charAt(0))) {
                        for (String s : lines.get(++i).split(" ")) {
                            values.add(Integer.parseInt(s));
                        }
                    }
                    int[] v = values.stream().mapToInt(Integer::intValue).toArray();
                    if (ejectedNow == null) {
                        owners = v;
                    } else {
                        ejected.put(ejectedNow, v);
                    }
                } else if (l.startsWith("failover ")) {
                    String[] f = l.split(" ");
                    int[] c = new int[f.length - 2];
                    for (int k = 0; k < c.length; k++) {
                        c[k] = Integer.parseInt(f[k + 2]);
                    }
                    failover.put(Integer.parseInt(f[1]), c);
                }
            }
            out.add(new Config(head[1], head[2], tag, servers, owners, ejected, failover));
        }
        return out;
    }

    private static List<String> lines(String resource) {
        try (InputStream in = FamilyVectors.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing");
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(new GZIPInputStream(in), StandardCharsets.UTF_8));
            List<String> out = new ArrayList<>();
            for (String l; (l = r.readLine()) != null; ) {
                out.add(l);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
