package auditflags

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// sampleRobots is the robots.txt history of the repository's sample month.
var sampleRobots = filepath.Join("..", "..", "testdata", "sample", "robots")

// parseBoth registers the flags on a flag.FlagSet and a pflag.FlagSet,
// parses args with each, and returns the two sets of values.
func parseBoth(t *testing.T, args []string) (std, pf *Values) {
	t.Helper()
	std, pf = new(Values), new(Values)
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	std.Register(fs, Beam, nil)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("flag: %v", err)
	}
	ps := pflag.NewFlagSet("test", pflag.ContinueOnError)
	ps.SetOutput(io.Discard)
	pf.Register(ps, Audit, []string{"combined"})
	if err := ps.Parse(args); err != nil {
		t.Fatalf("pflag: %v", err)
	}
	return std, pf
}

// TestRegisterBothFlagSets checks that the standard library's flag set and
// pflag's give the same configuration for the same arguments, --grace
// given or not.
func TestRegisterBothFlagSets(t *testing.T) {
	for _, tc := range []struct {
		name      string
		args      []string
		grace     time.Duration
		graceSet  bool
		proxies   int
		keepGoing bool
	}{
		{"defaults", []string{"--robots", sampleRobots}, DefaultGrace, false, 0, false},
		{"grace given as the default", []string{"--robots", sampleRobots, "--grace", "24h"}, DefaultGrace, true, 0, false},
		{"grace off", []string{"--robots", sampleRobots, "--grace=0"}, 0, true, 0, false},
		{"proxies repeated and comma-separated", []string{"--robots", sampleRobots, "--trusted-proxy", "10.0.0.0/8, 192.0.2.1", "--trusted-proxy", "2001:db8::/32", "--keep-going"}, DefaultGrace, false, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			std, pf := parseBoth(t, tc.args)
			for name, v := range map[string]*Values{"flag": std, "pflag": pf} {
				cfg, err := v.Config(nil)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if cfg.Grace != tc.grace || cfg.GraceForAll != tc.graceSet || len(cfg.TrustedProxies) != tc.proxies || cfg.KeepGoing != tc.keepGoing {
					t.Errorf("%s: grace %v (for all %v), %d proxies, keep going %v; want %v (%v), %d, %v",
						name, cfg.Grace, cfg.GraceForAll, len(cfg.TrustedProxies), cfg.KeepGoing, tc.grace, tc.graceSet, tc.proxies, tc.keepGoing)
				}
				if cfg.Robots != sampleRobots || cfg.Profile.String() == "" {
					t.Errorf("%s: robots %q, profile %v", name, cfg.Robots, cfg.Profile)
				}
			}
		})
	}
}

// TestConfigErrors checks that each bad value is a usage error that names
// its flag.
func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    Values
		want string
	}{
		{"no robots", Values{}, "--robots SRC is required"},
		{"unknown spec", Values{Robots: sampleRobots, Spec: "rfc2025"}, "--spec"},
		{"negative grace", Values{Robots: sampleRobots, Grace: -time.Hour}, "--grace must not be negative"},
		{"missing operators file", Values{Robots: sampleRobots, Operators: "/nonexistent/operators.yaml"}, "--operators"},
		{"bad from", Values{Robots: sampleRobots, From: "yesterday"}, "--from"},
		{"to before from", Values{Robots: sampleRobots, From: "2026-10-02", To: "2026-10-01"}, "--to 2026-10-01 is before --from 2026-10-02"},
		{"bad proxy", Values{Robots: sampleRobots, TrustedProxies: []string{"10.0.0.0/8,10.0.0.0/99"}}, `--trusted-proxy "10.0.0.0/99"`},
		{"missing ranges", Values{Robots: sampleRobots, Ranges: "/nonexistent/ranges"}, "--ranges"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.v.Config(nil)
			switch {
			case err == nil:
				t.Fatal("no error")
			case !strings.Contains(err.Error(), tc.want):
				t.Errorf("error %q, want %q in it", err, tc.want)
			case !IsUsage(err):
				t.Errorf("error %q is not a usage error", err)
			}
		})
	}
}

// TestHelpPerCommand checks that the Beam command's help speaks of its
// workers where audit's does not, and that audit's --format help lists the
// formats given.
func TestHelpPerCommand(t *testing.T) {
	ps := pflag.NewFlagSet("audit", pflag.ContinueOnError)
	new(Values).Register(ps, Audit, []string{"combined", "json"})
	fs := flag.NewFlagSet("beam", flag.ContinueOnError)
	new(Values).Register(fs, Beam, nil)
	if got := ps.Lookup("format").Usage; !strings.HasSuffix(got, "combined, json") {
		t.Errorf("audit --format help %q", got)
	}
	if got := fs.Lookup("workers").Usage; !strings.Contains(got, "each worker") {
		t.Errorf("beam --workers help %q", got)
	}
	if got := ps.Lookup("workers").Usage; strings.Contains(got, "worker") {
		t.Errorf("audit --workers help %q", got)
	}
	var names []string
	ps.VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	var stdNames []string
	fs.VisitAll(func(f *flag.Flag) { stdNames = append(stdNames, f.Name) })
	if strings.Join(names, " ") != strings.Join(stdNames, " ") || len(names) != len(usage) {
		t.Errorf("flags: pflag %v, flag %v, %d with help", names, stdNames, len(usage))
	}
}

func TestParseInstant(t *testing.T) {
	for _, tc := range []struct {
		in   string
		end  bool
		want string // RFC 3339 with nanoseconds; "" for the zero time; "error"
	}{
		{"", false, ""},
		{"2026-10-01", false, "2026-10-01T00:00:00Z"},
		{"2026-10-01", true, "2026-10-01T23:59:59.999999Z"},
		{"2026-10-01T12:00", false, "2026-10-01T12:00:00Z"},
		{"2026-10-01 12:00:05", true, "2026-10-01T12:00:05Z"},
		{"2026-10-01T12:00:00+02:00", false, "2026-10-01T10:00:00Z"},
		{"1 October 2026", false, "error"},
	} {
		got, err := ParseInstant(tc.in, tc.end)
		switch {
		case tc.want == "error":
			if err == nil {
				t.Errorf("ParseInstant(%q) = %v, want an error", tc.in, got)
			}
		case err != nil:
			t.Errorf("ParseInstant(%q): %v", tc.in, err)
		case tc.want == "" && !got.IsZero(), tc.want != "" && got.Format(time.RFC3339Nano) != tc.want:
			t.Errorf("ParseInstant(%q, %v) = %v, want %s", tc.in, tc.end, got.Format(time.RFC3339Nano), tc.want)
		}
	}
}

func TestParsePrefix(t *testing.T) {
	for in, want := range map[string]string{
		"10.1.2.3/8":        "10.0.0.0/8",
		"192.0.2.1":         "192.0.2.1/32",
		"::ffff:192.0.2.1":  "192.0.2.1/32",
		"2001:db8::1":       "2001:db8::1/128",
		"2001:db8::/32":     "2001:db8::/32",
		"10.0.0.0/99":       "error",
		"proxy.example.com": "error",
	} {
		p, err := ParsePrefix(in)
		if got := p.String(); err != nil && want != "error" || err == nil && got != want {
			t.Errorf("ParsePrefix(%q) = %v, %v; want %s", in, p, err, want)
		}
	}
}
