package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestUsageMessages holds the one-line messages of usage mistakes to
// sentences a first-time user understands: the missing argument named, a
// mistyped command's suggestion on the same line without a literal "\t",
// and a robots.txt that is an HTML page refused by check as by audit.
func TestUsageMessages(t *testing.T) {
	html := writeRobots(t, "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body>Not found</body></html>\n")
	for _, tc := range []struct {
		name    string
		args    []string
		want    []string
		notWant []string
	}{
		{"mistyped command", []string{"audt"}, []string{`unknown command "audt"`, `did you mean "audit"?`, "crawlaudit --help"}, []string{`\t`, "\t", "\n\n"}},
		{"audit without LOG", []string{"audit", "--robots", "testdata/robots.txt"}, []string{"audit: no LOG given", "- to read standard input"}, []string{"arg(s)"}},
		{"check without URL", []string{"check", "--robots", html, "--agent", "Googlebot"}, []string{"check: no URL given"}, []string{"arg(s)"}},
		{"lint without file", []string{"lint"}, []string{"lint: no ROBOTS_FILE given"}, []string{"arg(s)"}},
		{"ingest without LOG", []string{"ingest"}, []string{"ingest: no LOG given"}, []string{"arg(s)"}},
		{"query without SQL", []string{"query", "--db", "x.duckdb"}, []string{"query: give exactly one SQL statement", "(0 arguments given)"}, []string{"arg(s)"}},
		{"query with two", []string{"query", "--db", "x.duckdb", "SELECT", "1"}, []string{"(2 arguments given)"}, []string{"arg(s)"}},
		{"check on an HTML page", []string{"check", "--robots", html, "--agent", "Googlebot", "/a"}, []string{"looks like an HTML page", "plainly the wrong file"}, []string{"allowed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, "", tc.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr %q", code, exitUsage, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if strings.Count(stderr, "\n") != 1 {
				t.Errorf("stderr is not one line: %q", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr %q has %q", stderr, w)
				}
			}
		})
	}
}

// TestHelpSpeaksToUsers: no command's help names the project's internal
// documents (the contract's sections, issue numbers).
func TestHelpSpeaksToUsers(t *testing.T) {
	root := newRootCmd(&env{})
	cmds := append(root.Commands(), root)
	for i := 0; i < len(cmds); i++ {
		c := cmds[i]
		cmds = append(cmds, c.Commands()...)
		text := c.Short + "\n" + c.Long + "\n" + c.Example + "\n" + c.Flags().FlagUsages()
		if m := internalRef.FindString(text); m != "" {
			t.Errorf("crawlaudit %s --help says %q", c.CommandPath(), m)
		}
	}
}

// internalRef matches a reference to the project's own documents; a
// standard's section (RFC 9309 §2.4) is a source a user can read.
var internalRef = regexp.MustCompile(`(?i)contract|issue \d+|(^|[^0-9] )§\d+`)
