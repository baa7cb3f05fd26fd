package io.ketama.router;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The {@code Allow} of a 405 is {@link ProblemMappers#RESOURCE_METHODS}, written once: it stays true
 * only while every resource method of the service is a {@code GET}. A resource that takes another
 * method fails here, so the constant cannot go stale unnoticed.
 */
class AllowHeaderTest {

    @Test
    void everyResourceMethodOfTheServiceIsAGet() throws Exception {
        List<Class<?>> resources = resourceClasses();
        assertThat(resources).as("resource classes found").contains(CacheResource.class, RouteResource.class, RingResource.class);
        List<String> others = new ArrayList<>();
        for (Class<?> resource : resources) {
            for (Method method : resource.getDeclaredMethods()) {
                for (Annotation a : method.getAnnotations()) {
                    HttpMethod http = a.annotationType().getAnnotation(HttpMethod.class);
                    if (http != null && !HttpMethod.GET.equals(http.value())) {
                        others.add(resource.getSimpleName() + "." + method.getName() + ": " + http.value());
                    }
                }
            }
        }
        assertThat(others).as("resource methods that are not GET (then Allow of a 405 must come from the resources, not '"
                + ProblemMappers.RESOURCE_METHODS + "')").isEmpty();
        assertThat(ProblemMappers.RESOURCE_METHODS).isEqualTo("GET, HEAD");
    }

    /** Every class of the service's package (and below) that carries {@code @Path}. */
    private static List<Class<?>> resourceClasses() throws IOException, URISyntaxException {
        java.nio.file.Path root = Paths.get(CacheResource.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        java.nio.file.Path pkg = root.resolve(CacheResource.class.getPackageName().replace('.', '/'));
        List<Class<?>> found = new ArrayList<>();
        try (Stream<java.nio.file.Path> files = Files.walk(pkg)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = root.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
                Class<?> c;
                try {
                    c = Class.forName(name, false, AllowHeaderTest.class.getClassLoader());
                } catch (ClassNotFoundException | LinkageError e) {
                    continue;
                }
                if (c.isAnnotationPresent(Path.class)) {
                    found.add(c);
                }
            }
        }
        return found;
    }
}
