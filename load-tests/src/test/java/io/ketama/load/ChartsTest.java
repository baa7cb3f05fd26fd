package io.ketama.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChartsTest {

    @TempDir
    Path dir;

    @Test
    void timelineChartDrawsTheHitRatioLine() throws IOException {
        long t0 = 1_000_000;
        Timeline t = new Timeline(t0, 60);
        for (int s = 0; s < 30; s++) {
            for (int i = 0; i < 20; i++) {
                t.record(t0 + s * 1000L + i, i < 15 ? Outcome.HIT : Outcome.MISS, 2 + i, s >= 20, 0);
            }
        }
        Path png = dir.resolve("timeline.png");
        TimelineChart.render("title", "subtitle", t.rows(), List.of(new Marker(20, "v2 100%")), png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1400);
        // The hit ratio is 75 % throughout: the ratio panel (y 90..370) has the line's blue at 75 %.
        int y75 = 90 + (int) Math.round(280 * 0.25);
        assertThat(countColour(image, 0x1F77B4, y75 - 2, y75 + 2)).isGreaterThan(500);
        // The v2 line (orange) appears from second 20 on, at 100 %.
        assertThat(countColour(image, 0xFF7F0E, 88, 93)).isGreaterThan(100);
    }

    @Test
    void stepChartDrawsPredictedAndObservedBars() throws IOException {
        List<StepResult> results = new ArrayList<>();
        TimelineRow w = new TimelineRow(0, 80, 20, 0, 0, 0, 0, 0, 1, 2, 3);
        results.add(new StepResult(0, 0, 0, 0, 10, w, Double.NaN, 0.7, new ShadowCounters(60, 100), Double.NaN, 0, 0, 50, 0, 0));
        results.add(new StepResult(1, 50, 0, 10, 20, w, 0.8, 0.6, new ShadowCounters(60, 100), 0.6, 100, 28, 5, 0, 0));
        Path png = dir.resolve("steps.png");
        StepChart.render(results, png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(countColour(image, 0x7B3294, 110, 530)).as("predicted bar").isGreaterThan(1000);
        assertThat(countColour(image, 0x1F77B4, 110, 530)).as("observed bar").isGreaterThan(1000);
    }

    private static int countColour(BufferedImage image, int rgb, int fromY, int toY) {
        int n = 0;
        for (int y = Math.max(0, fromY); y <= Math.min(image.getHeight() - 1, toY); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == rgb) {
                    n++;
                }
            }
        }
        return n;
    }
}
