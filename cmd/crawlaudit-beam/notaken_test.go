package main

import (
	"bytes"
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAuditOnlyFlags: each audit flag that crawlaudit-beam does not take
// is one `crawlaudit audit` defines (cmd/crawlaudit/audit.go), is not one
// of this command's, and is refused with its reason; an unknown flag and
// a bad value are said in one line; --help prints the usage.
func TestAuditOnlyFlags(t *testing.T) {
	src, err := os.ReadFile("../crawlaudit/audit.go")
	if err != nil {
		t.Fatal(err)
	}
	defined := map[string]bool{}
	for _, m := range regexp.MustCompile(`f\.\w+Var[P]?\(&[\w.]+, "([a-z-]+)"`).FindAllSubmatch(src, -1) {
		defined[string(m[1])] = true
	}
	if !defined["rdns"] || !defined["limit"] {
		t.Fatalf("audit's flags not found in its source: %v", defined)
	}
	newSet := func() *flag.FlagSet {
		fs := flag.NewFlagSet("crawlaudit-beam", flag.ContinueOnError)
		var o cliOptions
		defineFlags(fs, &o)
		return fs
	}
	for name := range auditOnly {
		if !defined[name] {
			t.Errorf("--%s is not a flag of crawlaudit audit", name)
		}
		if newSet().Lookup(name) != nil {
			t.Errorf("--%s is listed as not taken, yet defined", name)
		}
	}
	// Every flag of audit is taken here or listed as not taken ("json",
	// "out", "fail-on", "quiet" are this command's own; the shared ones
	// come from auditflags).
	for name := range defined {
		if _, ok := auditOnly[name]; !ok && newSet().Lookup(name) == nil {
			t.Errorf("audit's --%s is neither taken nor listed as not taken", name)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--robots", "r", "--rdns", "access.log"}, exitError, "--rdns is crawlaudit audit's and not taken here: the pipeline writes summary.json and agents.json only"},
		{[]string{"--report=r.html", "access.log"}, exitError, "--report is crawlaudit audit's"},
		{[]string{"-limit", "10"}, exitError, "--limit is crawlaudit audit's and not taken here: no table is printed"},
		{[]string{"--nonsense"}, exitError, "no flag --nonsense (crawlaudit-beam --help lists them"},
		{[]string{"--split-bytes", "many"}, exitError, `invalid value "many" for flag -split-bytes`},
		{[]string{"--help"}, exitOK, "USAGE"},
		{[]string{"--robots", "r", "--quiet", "access.log"}, -1, ""},
	} {
		var stderr bytes.Buffer
		fs := newSet()
		code := parseArgs(fs, tc.args, func() { stderr.WriteString("USAGE") }, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") > 1 {
			t.Errorf("%q: exit %d, %q; want exit %d and %q", tc.args, code, stderr.String(), tc.code, tc.want)
		}
	}
}
