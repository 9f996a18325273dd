package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"
	"time"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/internal/safefile"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
)

// options are the flags of crawlaudit-beam that are `crawlaudit audit`'s
// (auditflags.Values): what every worker needs to judge its part of the
// logs as the audit would, and how the logs are cut. Beam serializes them
// (as JSON) into the steps that use them, so their fields are exported and
// plain.
type options struct {
	auditflags.Values
	// SplitBytes: a LOG argument that is a plain file longer than this is
	// read as byte ranges of this size, on as many workers; 0 reads every
	// argument whole.
	SplitBytes int64 `json:"split_bytes,omitempty"`
	// Inputs are the files the flags name, as the launcher read them
	// (packInputs), so that a worker reads none of them from its own disk:
	// it may run on another machine, or in a process of a job server whose
	// working directory is not the launcher's. Nil: each worker reads them.
	Inputs *packedInputs `json:"inputs,omitempty"`
}

// packedInputs are the contents of the files --robots, --operators and
// --ranges name. They travel in every step that judges, inside its options.
type packedInputs struct {
	// History is the robots.txt history of --robots, as loaded (a git
	// history too: the workers need no git or repository).
	History history.Snapshot `json:"history"`
	// Operators is the content of the --operators file, if one is given.
	Operators []byte `json:"operators,omitempty"`
	// Ranges are the range lists of the --ranges directory, by their path
	// in it ("SOURCE/FILE.json"), if one is given.
	Ranges map[string]packedFile `json:"ranges,omitempty"`
}

// packedFile is one file of a directory the launcher read.
type packedFile struct {
	Data []byte `json:"data"`
	// ModTime is when the file was written, which verify weighs (a list
	// written long after its creation time).
	ModTime time.Time `json:"mod_time"`
}

// defaultSplitBytes is --split-bytes' default.
const defaultSplitBytes = 64 << 20

// cliOptions are all the flags of crawlaudit-beam but Beam's own.
type cliOptions struct {
	options
	json   bool
	out    string
	failOn string
	quiet  bool
	// progress receives a line when the pipeline starts and when it ends
	// (run sets it to stderr on a terminal without --quiet); nil: none.
	progress io.Writer
}

// usageError is an error in the command line or its inputs: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErr(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// defineFlags defines the flags of o on fs: audit's shared ones with its
// names and defaults (package auditflags), then the Beam command's own.
func defineFlags(fs *flag.FlagSet, o *cliOptions) {
	o.Register(fs, auditflags.Beam, nil)
	fs.Int64Var(&o.SplitBytes, "split-bytes", defaultSplitBytes, "read a plain (uncompressed) LOG file longer than `N` bytes as byte ranges of N bytes, and the objects of a LOG URL in groups of about N bytes, on separate workers; 0 reads each LOG whole")
	fs.BoolVar(&o.json, "json", false, "print summary.json on stdout")
	fs.StringVar(&o.out, "out", "", "write summary.json and agents.json into `DIR` (on a file system every worker shares) or under an s3://, gs:// or azblob:// prefix")
	fs.StringVar(&o.failOn, "fail-on", "", "exit 1 when a bot has a finding of these `KINDS` (for cron and CI): "+strings.Join(auditflags.FailKindNames(), ", "))
	fs.BoolVar(&o.quiet, "quiet", false, "no progress lines, and none of the runner's warnings (its errors still)")
	fs.BoolVar(&o.quiet, "q", false, "shorthand for --quiet")
}

// config returns the audit configuration of o, or a usage error.
func (o *options) config() (audit.Config, error) {
	v := o.Values
	var loadRanges func(string) (*verify.Ranges, error)
	if o.Inputs != nil {
		v.Operators = "" // parsed from Inputs below
		loadRanges = func(dir string) (*verify.Ranges, error) {
			// An fs.FS in memory, with the files' modification times.
			fsys := fstest.MapFS{}
			for name, f := range o.Inputs.Ranges {
				fsys[name] = &fstest.MapFile{Data: f.Data, ModTime: f.ModTime, Mode: 0o644}
			}
			return auditflags.LoadRangesFS(fsys, dir)
		}
	}
	cfg, err := v.Config(loadRanges)
	if err != nil {
		if auditflags.IsUsage(err) {
			return cfg, usageErr("%v", err)
		}
		return cfg, err
	}
	if o.Inputs != nil {
		if o.Operators != "" {
			if cfg.Operators, err = bots.ParseRules(o.Operators, o.Inputs.Operators, bots.BuiltinRules()); err != nil {
				return cfg, usageErr("--operators: %v", err)
			}
		}
		if cfg.History, err = history.FromSnapshot(o.Inputs.History, history.Options{Host: cfg.Host}); err != nil {
			return cfg, err
		}
	}
	if o.SplitBytes < 0 {
		return cfg, usageErr("--split-bytes must not be negative (0 reads each LOG whole)")
	}
	return cfg, nil
}

// packInputs reads the files the flags name (the --robots history, the
// --operators file, the --ranges lists) into o.Inputs, as they are when the pipeline is
// built, and returns the history. cfg is o's configuration (config), with
// --operators already checked.
func (o *options) packInputs(cfg audit.Config) (*history.History, error) {
	hist, err := history.Load(cfg.Robots, history.Options{Host: cfg.Host})
	if err != nil {
		return nil, usageErr("%v", err)
	}
	in := &packedInputs{History: hist.Snapshot()}
	if o.Operators != "" {
		if in.Operators, err = safefile.ReadFile(o.Operators, bots.MaxRulesBytes); err != nil {
			return nil, usageErr("--operators: %v", err)
		}
	}
	if o.Ranges != "" {
		if in.Ranges, err = readRangesDir(o.Ranges); err != nil {
			return nil, usageErr("--ranges: %v", err)
		}
	}
	o.Inputs = in
	return hist, nil
}

// readRangesDir reads the range lists of a --ranges directory as
// verify.LoadDir would find them: DIR/SOURCE/FILE.json, names beginning
// with '.' left out, each list a regular file of at most
// verify.MaxListBytes. Config has already loaded and checked them.
func readRangesDir(dir string) (map[string]packedFile, error) {
	out := map[string]packedFile{}
	sources, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, src := range sources {
		if strings.HasPrefix(src.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, src.Name())
		if fi, err := os.Stat(p); err != nil || !fi.IsDir() { // follows a symbolic link
			continue
		}
		lists, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, l := range lists {
			if strings.HasPrefix(l.Name(), ".") || !strings.HasSuffix(l.Name(), ".json") || l.IsDir() {
				continue
			}
			lp := filepath.Join(p, l.Name())
			data, err := safefile.ReadFile(lp, verify.MaxListBytes)
			if err != nil {
				return nil, err
			}
			fi, err := os.Stat(lp)
			if err != nil {
				return nil, err
			}
			out[src.Name()+"/"+l.Name()] = packedFile{Data: data, ModTime: fi.ModTime()}
		}
	}
	return out, nil
}
