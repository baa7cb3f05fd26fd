package io.ketama.router.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

/**
 * {@link Http} through an {@link HttpAgent} running in network namespace {@code ns}: the test
 * reaches the members' addresses there without adding anything to the root namespace's network.
 * One request at a time.
 */
final class NamespaceHttp implements Http, AutoCloseable {

    private final Process agent;
    private final OutputStream requests;
    private final BufferedReader answers;

    NamespaceHttp(String ns, Path java) {
        try {
            String classes = Path.of(HttpAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            agent = new ProcessBuilder(List.of("ip", "netns", "exec", ns, java.toString(), "-Xmx64m", "-XX:+UseSerialGC", "-cp", classes,
                    HttpAgent.class.getName())).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            requests = agent.getOutputStream();
            answers = new BufferedReader(new InputStreamReader(agent.getInputStream(), StandardCharsets.UTF_8));
            String hello = answers.readLine();
            if (!"ready".equals(hello)) {
                throw new IllegalStateException("the HTTP agent in " + ns + " did not start: " + hello);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public Answer get(String url, long timeoutMillis) {
        return exchange("GET\t" + url + "\t" + timeoutMillis);
    }

    @Override
    public Answer put(String url, String json, String token, long timeoutMillis) {
        return exchange("PUT\t" + url + "\t" + timeoutMillis + "\t" + token + "\t"
                + Base64.getEncoder().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
    }

    private synchronized Answer exchange(String line) {
        try {
            requests.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            requests.flush();
            String answer = answers.readLine();
            if (answer == null) {
                throw new IllegalStateException("the HTTP agent ended");
            }
            int space = answer.indexOf(' ');
            int status = Integer.parseInt(answer.substring(0, space));
            if (status == 0) {
                return null;
            }
            return new Answer(status, new String(Base64.getDecoder().decode(answer.substring(space + 1)), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        agent.destroyForcibly();
    }
}
