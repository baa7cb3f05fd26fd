package io.ketama.router;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends a request line with exactly the given bytes (no client-side encoding or normalisation, as
 * RestAssured and java.net would do) to 127.0.0.1 and reads the answer.
 */
final class RawHttp {

    record Answer(int status, Map<String, String> headers, byte[] body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private RawHttp() {
    }

    static Answer get(int port, byte[] target, String... headerLines) throws IOException {
        return send("GET", port, target, headerLines);
    }

    /**
     * A {@code HEAD} request; the answer's body is every byte the server sent after the head
     * before it closed the connection, so a body sent where none belongs shows up in it.
     */
    static Answer head(int port, String target, String... headerLines) throws IOException {
        return send("HEAD", port, target.getBytes(StandardCharsets.ISO_8859_1), headerLines);
    }

    private static Answer send(String method, int port, byte[] target, String... headerLines) throws IOException {
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " ").getBytes(StandardCharsets.US_ASCII));
            out.write(target);
            StringBuilder head = new StringBuilder(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
            for (String h : headerLines) {
                head.append(h).append("\r\n");
            }
            head.append("\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            return parse(socket.getInputStream().readAllBytes(), "HEAD".equals(method));
        }
    }

    static Answer get(int port, String target, String... headerLines) throws IOException {
        return get(port, target.getBytes(StandardCharsets.ISO_8859_1), headerLines);
    }

    private static Answer parse(byte[] raw, boolean head) throws IOException {
        int end = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        if (end < 0) {
            throw new IOException("no complete HTTP head in " + raw.length + " bytes");
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        byte[] rest = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        byte[] body = !head && "chunked".equalsIgnoreCase(headers.get("transfer-encoding")) ? dechunk(rest) : rest;
        return new Answer(status, headers, body);
    }

    private static byte[] dechunk(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int pos = 0;
        while (pos < data.length) {
            int lineEnd = indexOf(java.util.Arrays.copyOfRange(data, pos, data.length), new byte[] {'\r', '\n'});
            int size = Integer.parseInt(new String(data, pos, lineEnd, StandardCharsets.US_ASCII).split(";")[0].trim(), 16);
            pos += lineEnd + 2;
            if (size == 0) {
                break;
            }
            out.write(data, pos, size);
            pos += size + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= data.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
