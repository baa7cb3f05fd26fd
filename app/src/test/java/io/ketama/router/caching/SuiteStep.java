package io.ketama.router.caching;

import java.util.ArrayList;
import java.util.List;

/**
 * One request of a test of the HTTP caching test suite (http-tests/cache-tests), as its config says:
 * what the client sends, what the origin answers to it, and what the client expects. Header values
 * given as numbers are dates in seconds relative to the origin's now, as in the suite.
 */
final class SuiteStep {

    enum Type { CACHED, NOT_CACHED, ETAG_VALIDATED, LM_VALIDATED }

    /** A header line: name, value (String, or Integer seconds from the origin's now), and whether the suite compares it later. */
    record Line(String name, Object value, boolean saved) {
    }

    String method = "GET";
    String query = "";
    final List<Line> requestHeaders = new ArrayList<>();
    Integer status;
    final List<Line> responseHeaders = new ArrayList<>();
    String body;
    boolean pauseAfter;
    boolean disconnect;

    Type expectedType;
    boolean expectStatusSet;
    Integer expectedStatus;
    final List<Object[]> expectedResponseHeaders = new ArrayList<>();
    final List<Object[]> missingResponseHeaders = new ArrayList<>();
    final List<Line> expectedRequestHeaders = new ArrayList<>();
    String expectedText;
    boolean checkBody = true;

    static SuiteStep get() {
        return new SuiteStep();
    }

    SuiteStep method(String m) {
        method = m;
        return this;
    }

    SuiteStep query(String q) {
        query = q;
        return this;
    }

    /** A request header line the client sends. */
    SuiteStep req(String name, Object value) {
        requestHeaders.add(new Line(name, value, true));
        return this;
    }

    /** A response header line the origin sends, which the suite later compares (flag true or absent). */
    SuiteStep resp(String name, Object value) {
        responseHeaders.add(new Line(name, value, true));
        return this;
    }

    /** A response header line the origin sends, which the suite does not compare (flag false). */
    SuiteStep raw(String name, Object value) {
        responseHeaders.add(new Line(name, value, false));
        return this;
    }

    SuiteStep status(int s) {
        status = s;
        return this;
    }

    SuiteStep body(String b) {
        body = b;
        return this;
    }

    SuiteStep pause() {
        pauseAfter = true;
        return this;
    }

    SuiteStep disconnect() {
        disconnect = true;
        return this;
    }

    SuiteStep cached() {
        expectedType = Type.CACHED;
        return this;
    }

    SuiteStep notCached() {
        expectedType = Type.NOT_CACHED;
        return this;
    }

    SuiteStep etagValidated() {
        expectedType = Type.ETAG_VALIDATED;
        return this;
    }

    SuiteStep lmValidated() {
        expectedType = Type.LM_VALIDATED;
        return this;
    }

    /** {@code expected_status}; null: not checked. */
    SuiteStep expectStatus(Integer s) {
        expectStatusSet = true;
        expectedStatus = s;
        return this;
    }

    SuiteStep expectHeader(String name, Object value) {
        expectedResponseHeaders.add(new Object[] {name, value});
        return this;
    }

    SuiteStep expectHeaderPresent(String name) {
        expectedResponseHeaders.add(new Object[] {name});
        return this;
    }

    SuiteStep expectHeaderAbove(String name, int value) {
        expectedResponseHeaders.add(new Object[] {name, ">", value});
        return this;
    }

    SuiteStep expectMissing(String name) {
        missingResponseHeaders.add(new Object[] {name});
        return this;
    }

    SuiteStep expectMissing(String name, String value) {
        missingResponseHeaders.add(new Object[] {name, value});
        return this;
    }

    SuiteStep expectRequestHeader(String name, String value) {
        expectedRequestHeaders.add(new Line(name, value, true));
        return this;
    }

    SuiteStep expectText(String text) {
        expectedText = text;
        return this;
    }

    SuiteStep noBodyCheck() {
        checkBody = false;
        return this;
    }
}
