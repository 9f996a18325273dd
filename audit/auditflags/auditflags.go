package auditflags

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify"
)

// DefaultGrace is --grace's default: crawlers may cache robots.txt for
// 24 hours (RFC 9309, section 2.4).
const DefaultGrace = 24 * time.Hour

// Values are the shared flags' values. crawlaudit-beam serializes them
// (as JSON) into the steps that judge, so the fields are exported and
// plain; the names of the JSON keys are part of no file a user keeps.
type Values struct {
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
	// Workers is the parsing goroutines of the ingest (0: one per core).
	Workers   int  `json:"workers,omitempty"`
	KeepGoing bool `json:"keep_going,omitempty"`

	// changed reports whether a flag was given, on a flag set that
	// tells (pflag's); nil where the flag itself records it.
	changed func(name string) bool
}

// Command is the command the flags are registered for: the flags mean the
// same in both, but the Beam command's help speaks of its workers.
type Command int

// The commands that share the flags.
const (
	Audit Command = iota // crawlaudit audit
	Beam                 // crawlaudit-beam
)

// FlagSet is what the standard library's flag.FlagSet and pflag's FlagSet
// both offer.
type FlagSet interface {
	StringVar(p *string, name, value, usage string)
	BoolVar(p *bool, name string, value bool, usage string)
	IntVar(p *int, name string, value int, usage string)
	DurationVar(p *time.Duration, name string, value time.Duration, usage string)
}

// pflagSet is the part of pflag's FlagSet that the standard library's
// lacks: a repeatable string flag, and whether a flag was given.
type pflagSet interface {
	StringArrayVar(p *[]string, name string, value []string, usage string)
	Changed(name string) bool
}

// funcFlagSet is the standard library's way to see a flag given.
type funcFlagSet interface {
	Func(name, usage string, fn func(string) error)
}

// usage is the help of each flag, for Audit and for Beam where it differs.
var usage = map[string][2]string{
	"robots":         {"robots.txt `SRC`: a file, a directory of versions, or git:REPO//PATH (required)", "robots.txt `SRC`: a file, a directory of versions, or git:REPO//PATH (required); read here and sent to the workers"},
	"host":           {"host `NAME` of log lines that carry none"},
	"spec":           {"robots.txt semantics: rfc9309, google, koster1996, orig1994, spc2", "robots.txt semantics: rfc9309, google, koster1996, orig1994"},
	"grace":          {"robots.txt cache grace period of crawlers whose operator documents none; given, it applies to all; 0 turns it off"},
	"operators":      {"operator rules `FILE` (YAML or JSON) extending or replacing the built-in table: tokens that ignore *, group fallbacks, user-triggered fetchers, cache grace", "operator rules `FILE` (YAML or JSON) extending or replacing the built-in table; read here and sent to the workers"},
	"from":           {"audit requests at or after `T` (RFC 3339, or a date: its start, UTC)"},
	"to":             {"audit requests at or before `T` (RFC 3339, or a date: its end, UTC)"},
	"format":         {"log format: auto, or one of ", "log `FORMAT`: auto, or one of crawlaudit audit's"},
	"log-format":     {"an Apache LogFormat or nginx log_format `LAYOUT` the logs follow"},
	"json-fields":    {"explicit JSON key `MAPPING` (time=ts,client_ip=request.remote_ip,forwarded_for=xff,...)", "explicit JSON key `MAPPING` (time=ts,client_ip=request.remote_ip,...)"},
	"ranges":         {"operators' IP range lists in `DIR` (crawlaudit ranges update), in place of the built-in snapshot for the sources it holds", "operators' IP range lists in `DIR` (crawlaudit ranges update), in place of the built-in snapshot for the sources it holds; read here and sent to the workers"},
	"trusted-proxy":  {"a proxy or CDN `CIDR` whose forwarded client address (X-Forwarded-For) is trusted; repeat or comma-separate", "a proxy or CDN `CIDR` whose forwarded client address is trusted; repeat or comma-separate"},
	"max-line-bytes": {"longest log line accepted (default 65536)"},
	"workers":        {"parsing goroutines (default: one per core)", "parsing goroutines of each worker (default: one per core)"},
	"keep-going":     {"exit 0 despite input errors (unreadable, truncated or damaged files; a --robots file that is not a robots.txt), and write --out and --db anyway", "write summary.json despite input errors (unreadable or truncated files), and go on with a --robots file that is not a robots.txt"},
}

// help is the help of flag name for cmd.
func help(name string, cmd Command) string {
	u := usage[name]
	if cmd == Beam && u[1] != "" {
		return u[1]
	}
	return u[0]
}

// Register defines the shared flags on fs, bound to v, with their
// defaults; formats are the log format names the audit's --format help
// lists. On a flag.FlagSet, --grace and --trusted-proxy are flag.Func
// flags (the standard library says no other way whether a flag was given,
// nor repeats one); on a pflag.FlagSet, a duration and a string array.
func (v *Values) Register(fs FlagSet, cmd Command, formats []string) {
	v.Grace = DefaultGrace
	fs.StringVar(&v.Robots, "robots", "", help("robots", cmd))
	fs.StringVar(&v.Host, "host", "", help("host", cmd))
	fs.StringVar(&v.Spec, "spec", "rfc9309", help("spec", cmd))
	formatHelp := help("format", cmd)
	if cmd == Audit {
		formatHelp += strings.Join(formats, ", ")
	}
	fs.StringVar(&v.Format, "format", "auto", formatHelp)
	fs.StringVar(&v.LogFormat, "log-format", "", help("log-format", cmd))
	fs.StringVar(&v.JSONFields, "json-fields", "", help("json-fields", cmd))
	fs.StringVar(&v.From, "from", "", help("from", cmd))
	fs.StringVar(&v.To, "to", "", help("to", cmd))
	fs.StringVar(&v.Operators, "operators", "", help("operators", cmd))
	fs.StringVar(&v.Ranges, "ranges", "", help("ranges", cmd))
	fs.IntVar(&v.Workers, "workers", 0, help("workers", cmd))
	fs.IntVar(&v.MaxLineBytes, "max-line-bytes", 0, help("max-line-bytes", cmd))
	fs.BoolVar(&v.KeepGoing, "keep-going", false, help("keep-going", cmd))
	switch f := fs.(type) {
	case pflagSet:
		fs.DurationVar(&v.Grace, "grace", DefaultGrace, help("grace", cmd))
		f.StringArrayVar(&v.TrustedProxies, "trusted-proxy", nil, help("trusted-proxy", cmd))
		v.changed = f.Changed
	case funcFlagSet:
		f.Func("grace", help("grace", cmd)+" (default "+DefaultGrace.String()+")", func(s string) error {
			d, err := time.ParseDuration(s)
			if err != nil {
				return err
			}
			v.Grace, v.GraceSet = d, true
			return nil
		})
		f.Func("trusted-proxy", help("trusted-proxy", cmd), func(s string) error {
			v.TrustedProxies = append(v.TrustedProxies, s)
			return nil
		})
	default:
		panic(fmt.Sprintf("auditflags: a flag set of type %T has neither StringArrayVar nor Func", fs))
	}
}

// UsageError is a value of a flag that cannot be used: the command exits
// with its usage status and the message, which names the flag.
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

func usageErr(format string, args ...any) error {
	return &UsageError{fmt.Sprintf(format, args...)}
}

// IsUsage reports whether err is a UsageError.
func IsUsage(err error) bool {
	var ue *UsageError
	return errors.As(err, &ue)
}

// Config checks the values and returns the audit configuration they make:
// profile, grace, operator rules, period, trusted proxies, ingest options
// and, with loadRanges, --ranges (the snapshot overridden by DIR). An
// error names the flag; it is a UsageError unless the program itself is
// at fault (the built-in range lists unreadable). loadRanges is nil for
// the default (verify.LoadDir over verify.Snapshot), or the command's own,
// which may also tell the user what it refused.
func (v *Values) Config(loadRanges func(dir string) (*verify.Ranges, error)) (audit.Config, error) {
	var cfg audit.Config
	if v.changed != nil && v.changed("grace") {
		v.GraceSet = true
	}
	if v.Robots == "" {
		return cfg, usageErr("--robots SRC is required (a robots.txt file, a directory of versions, or git:REPO//PATH)")
	}
	profile, err := robots.ParseProfile(v.Spec)
	if err != nil {
		return cfg, usageErr("--spec: %v", err)
	}
	if v.Grace < 0 {
		return cfg, usageErr("--grace must not be negative")
	}
	var rules *bots.Rules
	if v.Operators != "" {
		if rules, err = bots.LoadRules(v.Operators); err != nil {
			return cfg, usageErr("--operators: %v", err)
		}
	}
	cfg = audit.Config{
		Robots:      v.Robots,
		Host:        v.Host,
		Profile:     profile,
		Grace:       v.Grace,
		GraceForAll: v.GraceSet,
		Operators:   rules,
		KeepGoing:   v.KeepGoing,
		Ingest: ingest.Options{
			Format:       v.Format,
			LogFormat:    v.LogFormat,
			JSONFields:   v.JSONFields,
			MaxLineBytes: v.MaxLineBytes,
			Workers:      v.Workers,
		},
	}
	if cfg.From, err = ParseInstant(v.From, false); err != nil {
		return cfg, usageErr("--from: %v", err)
	}
	if cfg.To, err = ParseInstant(v.To, true); err != nil {
		return cfg, usageErr("--to: %v", err)
	}
	if !cfg.From.IsZero() && !cfg.To.IsZero() && cfg.To.Before(cfg.From) {
		return cfg, usageErr("--to %s is before --from %s", v.To, v.From)
	}
	// Objects in object storage whose keys date them outside the period
	// are not read.
	cfg.Ingest.From, cfg.Ingest.To = cfg.From, cfg.To
	for _, list := range v.TrustedProxies {
		for _, s := range strings.Split(list, ",") {
			if s = strings.TrimSpace(s); s == "" {
				continue
			}
			p, err := ParsePrefix(s)
			if err != nil {
				return cfg, usageErr("--trusted-proxy %q: %v", s, err)
			}
			cfg.TrustedProxies = append(cfg.TrustedProxies, p)
		}
	}
	if v.Ranges != "" {
		if loadRanges == nil {
			loadRanges = LoadRanges
		}
		if cfg.Ranges, err = loadRanges(v.Ranges); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// LoadRangesFS is LoadRanges over fsys, which holds what dir held
// (verify.LoadFS): for crawlaudit-beam's workers, which get the directory
// in the pipeline.
func LoadRangesFS(fsys fs.FS, dir string) (*verify.Ranges, error) {
	snap, err := verify.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("the built-in range lists: %w", err)
	}
	over, err := verify.LoadFS(fsys, dir)
	if err != nil {
		return nil, usageErr("--ranges: %v", err)
	}
	return snap.Override(over), nil
}

// LoadRanges is the built-in snapshot of the operators' range lists with
// the lists of --ranges dir in place of its own for the sources dir holds.
func LoadRanges(dir string) (*verify.Ranges, error) {
	snap, err := verify.Snapshot()
	if err != nil {
		return nil, fmt.Errorf("the built-in range lists: %w", err)
	}
	over, err := verify.LoadDir(dir)
	if err != nil {
		return nil, usageErr("--ranges: %v", err)
	}
	return snap.Override(over), nil
}
