package main

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify"
)

// options are the flags of crawlaudit-beam that are `crawlaudit audit`'s:
// what every worker needs to judge its part of the logs as the audit
// would. Beam serializes them (as JSON) into the steps that use them, so
// their fields are exported and plain.
type options struct {
	Robots string        `json:"robots"`
	Host   string        `json:"host,omitempty"`
	Spec   string        `json:"spec,omitempty"`
	Grace  time.Duration `json:"grace"`
	// GraceSet: --grace was given, so it applies to every crawler, also to
	// those whose operator documents a grace of its own.
	GraceSet bool `json:"grace_set,omitempty"`
	// Operators is --operators FILE: operator rules extending or replacing
	// the built-in table.
	Operators  string `json:"operators,omitempty"`
	From       string `json:"from,omitempty"`
	To         string `json:"to,omitempty"`
	Format     string `json:"format,omitempty"`
	LogFormat  string `json:"log_format,omitempty"`
	JSONFields string `json:"json_fields,omitempty"`
	// Ranges is --ranges DIR: the operators' range lists in place of the
	// built-in snapshot's for the sources it holds.
	Ranges         string   `json:"ranges,omitempty"`
	TrustedProxies []string `json:"trusted_proxies,omitempty"`
	MaxLineBytes   int      `json:"max_line_bytes,omitempty"`
	// Workers is the parsing goroutines of each worker's ingest (0: one
	// per core).
	Workers   int  `json:"workers,omitempty"`
	KeepGoing bool `json:"keep_going,omitempty"`
	// SplitBytes: a LOG argument that is a plain file longer than this is
	// read as byte ranges of this size, on as many workers; 0 reads every
	// argument whole.
	SplitBytes int64 `json:"split_bytes,omitempty"`
}

// defaultSplitBytes is --split-bytes' default.
const defaultSplitBytes = 64 << 20

// cliOptions are all the flags of crawlaudit-beam but Beam's own.
type cliOptions struct {
	options
	json bool
	out  string
}

// usageError is an error in the command line or its inputs: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// defineFlags defines the flags of o on fs, with audit's names and
// defaults.
func defineFlags(fs *flag.FlagSet, o *cliOptions) {
	o.Grace = 24 * time.Hour
	fs.StringVar(&o.Robots, "robots", "", "robots.txt `SRC`: a file, a directory of versions, or git:REPO//PATH (required)")
	fs.StringVar(&o.Host, "host", "", "host `NAME` of log lines that carry none")
	fs.StringVar(&o.Spec, "spec", "rfc9309", "robots.txt semantics: rfc9309, google, koster1996, orig1994")
	fs.Func("grace", "robots.txt cache grace period of crawlers whose operator documents none; given, it applies to all; 0 turns it off (default 24h0m0s)", func(s string) error {
		d, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		o.Grace, o.GraceSet = d, true
		return nil
	})
	fs.StringVar(&o.Operators, "operators", "", "operator rules `FILE` (YAML or JSON) extending or replacing the built-in table; every worker reads it")
	fs.StringVar(&o.From, "from", "", "audit requests at or after `T` (RFC 3339, or a date: its start, UTC)")
	fs.StringVar(&o.To, "to", "", "audit requests at or before `T` (RFC 3339, or a date: its end, UTC)")
	fs.StringVar(&o.Format, "format", "auto", "log `FORMAT`: auto, or one of crawlaudit audit's")
	fs.StringVar(&o.LogFormat, "log-format", "", "an Apache LogFormat or nginx log_format `LAYOUT` the logs follow")
	fs.StringVar(&o.JSONFields, "json-fields", "", "explicit JSON key `MAPPING` (time=ts,client_ip=request.remote_ip,...)")
	fs.StringVar(&o.Ranges, "ranges", "", "operators' IP range lists in `DIR` (crawlaudit ranges update), in place of the built-in snapshot for the sources it holds; every worker reads it")
	fs.Func("trusted-proxy", "a proxy or CDN `CIDR` whose forwarded client address is trusted; repeat or comma-separate", func(s string) error {
		o.TrustedProxies = append(o.TrustedProxies, s)
		return nil
	})
	fs.IntVar(&o.MaxLineBytes, "max-line-bytes", 0, "longest log line accepted (default 65536)")
	fs.IntVar(&o.Workers, "workers", 0, "parsing goroutines of each worker (default: one per core)")
	fs.BoolVar(&o.KeepGoing, "keep-going", false, "write summary.json despite input errors (unreadable or truncated files), and go on with a --robots file that is not a robots.txt")
	fs.Int64Var(&o.SplitBytes, "split-bytes", defaultSplitBytes, "read a plain (uncompressed) LOG file longer than `N` bytes as byte ranges of N bytes, on separate workers; 0 reads each LOG whole")
	fs.BoolVar(&o.json, "json", false, "print summary.json on stdout")
	fs.StringVar(&o.out, "out", "", "write summary.json into `DIR` (on a file system every worker shares)")
}

// config returns the audit configuration of o, or a usage error.
func (o *options) config() (audit.Config, error) {
	var cfg audit.Config
	if o.Robots == "" {
		return cfg, usageErr("--robots SRC is required (a robots.txt file, a directory of versions, or git:REPO//PATH)")
	}
	profile, err := robots.ParseProfile(o.Spec)
	if err != nil {
		return cfg, usageErr("--spec: %v", err)
	}
	if o.Grace < 0 {
		return cfg, usageErr("--grace must not be negative")
	}
	if o.SplitBytes < 0 {
		return cfg, usageErr("--split-bytes must not be negative (0 reads each LOG whole)")
	}
	var rules *bots.Rules
	if o.Operators != "" {
		if rules, err = bots.LoadRules(o.Operators); err != nil {
			return cfg, usageErr("--operators: %v", err)
		}
	}
	cfg = audit.Config{
		Robots:      o.Robots,
		Host:        o.Host,
		Profile:     profile,
		Grace:       o.Grace,
		GraceForAll: o.GraceSet,
		Operators:   rules,
		KeepGoing:   o.KeepGoing,
		Ingest: ingest.Options{
			Format:       o.Format,
			LogFormat:    o.LogFormat,
			JSONFields:   o.JSONFields,
			MaxLineBytes: o.MaxLineBytes,
			Workers:      o.Workers,
		},
	}
	if cfg.From, err = audit.ParseInstant(o.From, false); err != nil {
		return cfg, usageErr("--from: %v", err)
	}
	if cfg.To, err = audit.ParseInstant(o.To, true); err != nil {
		return cfg, usageErr("--to: %v", err)
	}
	if !cfg.From.IsZero() && !cfg.To.IsZero() && cfg.To.Before(cfg.From) {
		return cfg, usageErr("--to %s is before --from %s", o.To, o.From)
	}
	for _, list := range o.TrustedProxies {
		for _, s := range strings.Split(list, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			p, err := audit.ParsePrefix(s)
			if err != nil {
				return cfg, usageErr("--trusted-proxy %q: %v", s, err)
			}
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	if o.Ranges != "" {
		snap, err := verify.Snapshot()
		if err != nil {
			return cfg, fmt.Errorf("the built-in range lists: %w", err)
		}
		over, err := verify.LoadDir(o.Ranges)
		if err != nil {
			return cfg, usageErr("--ranges: %v", err)
		}
		cfg.Ranges = snap.Override(over)
	}
	return cfg, nil
}
