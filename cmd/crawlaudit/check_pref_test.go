package main

import (
	"os"
	"strings"
	"testing"
)

// prefDir holds a realistic publisher's robots.txt with preferences (and
// the mistakes lint should find) and the golden outputs of lint and check.
const prefDir = "testdata/preferences/"

// TestPreferencesGolden: lint and check --json on the publisher's file,
// compared with the golden files (-update rewrites them).
func TestPreferencesGolden(t *testing.T) {
	robotsFile := prefDir + "publisher-robots.txt"
	var b strings.Builder
	code, out, stderr := runCLI(t, "", "lint", robotsFile)
	if code != exitFound {
		t.Errorf("lint exit %d, want 1 (errors in the file); stderr %s", code, stderr)
	}
	b.WriteString(out)
	for _, agent := range []string{"GPTBot", "Mozilla/5.0 (compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)", "Googlebot", "Bytespider"} {
		code, out, stderr := runCLI(t, "", "check", "--robots", robotsFile, "--agent", agent, "--json",
			"/world/2026/10/story.html", "/press-releases/q3", "/opinion/column", "/account/settings", "/newsletter/")
		if code > exitFound {
			t.Fatalf("check %s: exit %d: %s", agent, code, stderr)
		}
		b.WriteString("# check --agent " + agent + "\n" + out)
	}
	compareGolden(t, prefDir+"publisher.golden", b.String())
}

// TestCheckPreferencesTerminal: the terminal prints the preferences in a
// line under each URL, and says a disallowed URL has none.
func TestCheckPreferencesTerminal(t *testing.T) {
	p := writeRobots(t, "Content-Signal: ai-train=no\nUser-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y, search=y\n")
	code, out, _ := runCLI(t, "", "check", "--robots", p, "--agent", "GPTBot", "/blog/a", "/private/x")
	if code != exitFound {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{
		"allowed     /blog/a  (no rule matches)\n            preferences: train-ai=n (line 1, Content-Signal), ai-use unset, search=y (line 4, Content-Usage)\n",
		"DISALLOWED  /private/x  (line 3: Disallow: /private/)\n            preferences: train-ai=n (line 1, Content-Signal), ai-use unset, search unset; the URL is disallowed, so no preference applies to it\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Without preference lines nothing is added.
	p = writeRobots(t, "User-agent: *\nDisallow: /private/\n")
	_, out, _ = runCLI(t, "", "check", "--robots", p, "--agent", "GPTBot", "/blog/a")
	if strings.Contains(out, "preferences") {
		t.Errorf("preferences printed for a file without any:\n%s", out)
	}
	_, out, _ = runCLI(t, "", "check", "--robots", p, "--agent", "GPTBot", "--json", "/blog/a")
	if strings.Contains(out, "preferences") {
		t.Errorf("preferences in JSON for a file without any:\n%s", out)
	}
}

// compareGolden compares got with the golden file, or rewrites it with -update.
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(want) != got {
		t.Errorf("output differs from %s (rerun with -update if the change is intended):\n%s", golden, diffLines(string(want), got))
	}
}
