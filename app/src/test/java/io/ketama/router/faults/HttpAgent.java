package io.ketama.router.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * A process that runs inside a network namespace (started with {@code ip netns exec}) and makes
 * HTTP requests there for a test that runs outside it, so the test needs no address in the root
 * namespace. One request a line on stdin, tab-separated: {@code GET <url> <timeout ms>} or
 * {@code PUT <url> <timeout ms> <token> <base64 json>}; one answer a line on stdout: {@code <status>
 * <base64 body>}, or {@code 0 -} when none came. Only JDK classes: it runs from the test classes
 * directory alone.
 */
public final class HttpAgent {

    private HttpAgent() {
    }

    public static void main(String[] args) throws IOException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        out.println("ready");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t");
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(f[1])).timeout(Duration.ofMillis(Long.parseLong(f[2])));
            if (f[0].equals("PUT")) {
                request.header("Content-Type", "application/json").header("Authorization", "Bearer " + f[3])
                        .PUT(HttpRequest.BodyPublishers.ofString(new String(Base64.getDecoder().decode(f[4]), StandardCharsets.UTF_8)));
            } else {
                request.GET();
            }
            try {
                HttpResponse<String> r = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                out.println(r.statusCode() + " " + Base64.getEncoder().encodeToString(r.body().getBytes(StandardCharsets.UTF_8)));
            } catch (IOException e) {
                out.println("0 -");
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
