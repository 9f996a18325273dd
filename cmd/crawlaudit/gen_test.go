package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// runCLI runs the command line and returns its exit status and output.
func runGenCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestGenSample runs the command written in testdata/sample/README.md into a
// temporary directory and checks that every committed file of the sample is
// byte-identical to what it produces.
func TestGenSample(t *testing.T) {
	sample := filepath.Join("..", "..", "testdata", "sample")
	readme, err := os.ReadFile(filepath.Join(sample, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var cmdline string
	for line := range strings.Lines(string(readme)) {
		if strings.HasPrefix(line, "crawlaudit gen ") && strings.Contains(line, "testdata/sample/") {
			cmdline = strings.TrimSpace(line)
			break
		}
	}
	if cmdline == "" {
		t.Fatal("testdata/sample/README.md has no line starting with \"crawlaudit gen\" that writes testdata/sample/")
	}
	tmp := t.TempDir()
	args := strings.Fields(strings.ReplaceAll(cmdline, "testdata/sample", tmp))[1:]
	if code, _, stderr := runGenCLI(args...); code != 0 {
		t.Fatalf("%s: exit %d: %s", cmdline, code, stderr)
	}
	var n int
	err = filepath.WalkDir(tmp, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(tmp, path)
		got, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		committed, err := os.ReadFile(filepath.Join(sample, rel))
		if err != nil {
			t.Errorf("the command writes %s, which is not committed: %v", rel, err)
			return nil
		}
		if !bytes.Equal(got, committed) {
			t.Errorf("testdata/sample/%s differs from what %q writes: rerun the command and commit", rel, cmdline)
		}
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 4 {
		t.Errorf("the command wrote %d files, want the log and three robots.txt versions", n)
	}
}

func TestGen(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sub", "access.log.gz")
	code, _, stderr := runGenCLI("gen", "--lines", "1234", "--seed", "3", "--from", "2026-10-24T00:00:00Z",
		"--to", "2026-10-26", "--format", "w3c", "--gzip", "--host", "a.example", "--host", "b.example",
		"--robots-dir", filepath.Join(dir, "robots"), "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	lines := 0
	for line := range strings.Lines(text) {
		if !strings.HasPrefix(line, "#") {
			lines++
		}
	}
	if lines != 1234 || !strings.HasPrefix(text, "#Software: ") || !strings.Contains(text, " a.example ") || !strings.Contains(text, " b.example ") {
		t.Errorf("got %d request lines (want 1234), a W3C header and both hosts:\n%.500s", lines, text)
	}
	for _, h := range []string{"a.example", "b.example"} {
		for _, v := range []string{"2026-09-15T00:00:00Z.txt", "2026-10-10T12:00:00Z.txt", "2026-10-20T00:00:00Z.txt"} {
			b, err := os.ReadFile(filepath.Join(dir, "robots", h, v))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "Sitemap: https://"+h+"/sitemap.xml") {
				t.Errorf("%s/%s does not name its host in Sitemap", h, v)
			}
		}
	}
	// -o - writes to stdout, the same bytes for the same flags.
	code1, out1, _ := runGenCLI("gen", "--lines", "500", "-o", "-")
	code2, out2, _ := runGenCLI("gen", "--lines", "500", "-o", "-")
	if code1 != 0 || code2 != 0 || out1 != out2 || strings.Count(out1, "\n") != 500 {
		t.Errorf("gen -o -: exits %d %d, %d lines, identical %v", code1, code2, strings.Count(out1, "\n"), out1 == out2)
	}
}

func TestGenUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"gen"},
		{"gen", "-o", "-", "--from", "October"},
		{"gen", "-o", "-", "--to", "2026-10-01T00:30:00Z", "--from", "2026-10-01"},
		{"gen", "-o", "-", "--format", "xml"},
		{"gen", "-o", "-", "--lines", "-5"},
		{"gen", "-o", "-", "--tz", "Mars/Olympus"},
		{"gen", "-o", "-", "--host", "../x"},
		{"gen", "-o", "-", "extra-arg"},
		{"gen", "-o", "-", "--paths", "-1"},
		{"gen", "-o", "-", "--lines", "100", "--paths", "101"},
		{"gen", "-o", "-", "--agents", "5"},
		{"gen", "-o", "-", "--agents", "100000"},
		{"gen", "-o", "-", "--bot-share", "1"},
		{"gen", "-o", "-", "--bot-share", "-0.5"},
		{"gen", "-o", "-", "--bot-share", "NaN"},
		{"gen", "-o", "-", "--robots-rules", "30"},
		{"gen", "-o", "-", "--realistic", "--agents", "3"},
		{"gen", "-o", "-", "--robots-outage", "2026-10-22/2026-10-23=503"},
		{"gen", "-o", "-", "--robots-outage", "2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=302"},
		{"gen", "-o", "-", "--robots-outage", "2026-10-22T06:00:00Z/2026-10-22T11:00:00Z"},
		{"gen", "-o", "-", "--robots-outage", "2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503",
			"--robots-outage", "2026-10-22T10:00:00Z/2026-10-23T00:00:00Z=404"},
	} {
		code, stdout, stderr := runGenCLI(args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, "crawlaudit: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and a one-line message", args, code, stdout, stderr)
		}
	}
}

// --robots-outage makes /robots.txt answer its status in its period: every
// /robots.txt line of the log in the period has it, every other 200.
func TestGenRobotsOutage(t *testing.T) {
	code, out, stderr := runGenCLI("gen", "--lines", "20000", "--from", "2026-10-01", "--to", "2026-10-04", "--tz", "UTC",
		"--robots-outage", "2026-10-02T06:00:00Z/2026-10-02T12:00:00Z=503",
		"--robots-outage", "2026-10-02T12:00:00Z/2026-10-03T00:00:00Z=410", "-o", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := map[string]int{} // "in 503", "in 410", "out 200", ...
	for line := range strings.Lines(out) {
		if !strings.Contains(line, "\"GET /robots.txt ") {
			continue
		}
		// 1.2.3.4 - - [02/Oct/2026:06:12:00 +0000] "GET /robots.txt HTTP/1.1" 503 ...
		ts := line[strings.IndexByte(line, '[')+1 : strings.IndexByte(line, ']')]
		at, err := time.Parse("02/Jan/2006:15:04:05 -0700", ts)
		if err != nil {
			t.Fatal(err)
		}
		status := strings.Fields(line[strings.Index(line, "HTTP/"):])[1]
		where := "out"
		switch h := at.Sub(time.Date(2026, 10, 2, 0, 0, 0, 0, time.UTC)).Hours(); {
		case h >= 6 && h < 12:
			where = "in 503"
		case h >= 12 && h < 24:
			where = "in 410"
		}
		got[where+" "+status]++
	}
	if len(got) != 3 || got["in 503 503"] == 0 || got["in 410 410"] == 0 || got["out 200"] == 0 {
		t.Errorf("/robots.txt responses by period and status: %v", got)
	}
}

func TestGenHelp(t *testing.T) {
	code, out, _ := runGenCLI("gen", "--help")
	if code != 0 || !strings.Contains(out, "Developer tool") || !strings.Contains(out, "Examples:") ||
		!strings.Contains(out, "--robots-dir") {
		t.Errorf("gen --help: exit %d:\n%s", code, out)
	}
}

// crawlerUA matches the User-Agents of the generator's crawlers and
// scripts (TestGenRealistic counts the bot share by it).
var crawlerUA = regexp.MustCompile(`(?i)bot|spider|crawl|curl|python-requests|Go-http-client|Wget|meta-externalagent`)

// gen --realistic makes the benchmarks' realistic month (scaled to 100,000 lines
// here: about 10,400 distinct paths, 271 User-Agents, 30% crawlers, the
// 60-rule robots.txt); a knob given with it overrides it, and
// --robots-rules writes that many rules into the history.
func TestGenRealistic(t *testing.T) {
	for _, tc := range []struct {
		name        string
		args        []string
		paths, uas  int
		share       float64
		robotsRules int
	}{
		{"realistic", []string{"--realistic"}, 10_400, 271, 0.30, 60},
		{"realistic with --bot-share 0.5 and --robots-rules 120", []string{"--realistic", "--bot-share", "0.5", "--robots-rules", "120"}, 10_400, 271, 0.50, 120},
		{"knobs without --realistic", []string{"--paths", "30000", "--agents", "100", "--bot-share", "0.2"}, 30_000, 100, 0.20, 60},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := append([]string{"gen", "--lines", "100000", "--robots-dir", dir, "-o", "-"}, tc.args...)
			code, out, stderr := runGenCLI(args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			paths, uas := map[string]bool{}, map[string]bool{}
			lines, crawlers := 0, 0
			for line := range strings.Lines(out) {
				// combined: ... "GET /path HTTP/1.1" 200 123 "referer" "agent"
				f := strings.Split(line, "\"")
				if len(f) < 6 {
					t.Fatalf("not a combined line: %q", line)
				}
				req := strings.Fields(f[1])
				paths[req[1]] = true
				uas[f[5]] = true
				if crawlerUA.MatchString(f[5]) {
					crawlers++
				}
				lines++
			}
			share := float64(crawlers) / float64(lines)
			if lines != 100_000 || math.Abs(float64(len(paths)-tc.paths)) > 0.03*float64(tc.paths) ||
				len(uas) > tc.uas || len(uas) < tc.uas*94/100 || math.Abs(share-tc.share) > 0.01 {
				t.Errorf("%d lines, %d distinct paths (want %d), %d User-Agents (want %d), crawler share %.3f (want %.2f)",
					lines, len(paths), tc.paths, len(uas), tc.uas, share, tc.share)
			}
			last, err := os.ReadFile(filepath.Join(dir, "www.example.com", "2026-10-20T00:00:00Z.txt"))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(regexp.MustCompile(`(?m)^(Allow|Disallow):`).FindAll(last, -1)); n != tc.robotsRules {
				t.Errorf("the last robots.txt version has %d rules, want %d", n, tc.robotsRules)
			}
		})
	}
}
