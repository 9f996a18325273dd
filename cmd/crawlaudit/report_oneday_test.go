package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestReportOneDay audits a one-day log made by the generator: the
// report's charts and their numbers are by hour, 24 slots, not one day
// drawn as a single point. With Chromium it saves a screenshot of the
// timeline (CRAWLAUDIT_SCREENSHOT_DIR).
func TestReportOneDay(t *testing.T) {
	dir := t.TempDir()
	logFile, robots, out := filepath.Join(dir, "oneday.log"), filepath.Join(dir, "robots"), filepath.Join(dir, "out")
	if code, _, stderr := runCLI(t, "", "gen", "--lines", "5000", "--seed", "3", "--from", "2026-10-05", "--to", "2026-10-06",
		"--robots-dir", robots, "-o", logFile); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "", "audit", "--robots", robots, "--out", out, logFile); code != exitOK {
		t.Fatalf("audit: exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	for _, want := range []string{"Requests per hour of the", "Disallowed requests and breaches per hour", "its requests per hour (2026-10-05 00:00 to 2026-10-05 23:00)"} {
		if !strings.Contains(page, want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// The line of the bot with most requests has a point per hour.
	line := regexp.MustCompile(`<polyline class="ln c0" points="([^"]*)"`).FindStringSubmatch(page)
	if line == nil || len(strings.Fields(line[1])) != 24 {
		t.Errorf("the timeline's first line is not 24 hours: %v", line)
	}
	if labels := regexp.MustCompile(`<text class="xl"[^>]*>(\d\d:00)</text>`).FindAllStringSubmatch(page, -1); len(labels) < 12 || labels[0][1] != "00:00" {
		t.Errorf("the time axis is not labelled by hour: %v", labels)
	}
	if rows := strings.Count(page, `<tr><th scope="row">2026-10-05 `); rows != 72 {
		t.Errorf("%d rows of hours in the numbers behind the charts, want 24 in each of the 3 tables (requests, findings, bytes)", rows)
	}
	if bars := strings.Count(page, `<rect class="k-`); bars < 12 {
		t.Errorf("%d bar segments in the chart of findings: the hours are not drawn", bars)
	}

	chrome := chromiumPath(t)
	shotDir := os.Getenv("CRAWLAUDIT_SCREENSHOT_DIR")
	if shotDir == "" {
		shotDir = t.TempDir()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chrome), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.WindowSize(1280, 900), chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	defer cancelTimeout()
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(out, "report.html")), chromedp.WaitReady(chromedp.ID("method"))); err != nil {
		t.Fatal(err)
	}
	shot, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.ID("timeline")))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(shotDir, "oneday-timeline.png")
	if err := os.WriteFile(name, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("timeline of a one-day log: %s", name)
}
