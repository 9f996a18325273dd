package main

import (
	"flag"
	"fmt"

	"github.com/crawlaudit/crawlaudit/audit"
	"github.com/crawlaudit/crawlaudit/audit/auditflags"
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

// defineFlags defines the flags of o on fs: audit's shared ones with its
// names and defaults (package auditflags), then the Beam command's own.
func defineFlags(fs *flag.FlagSet, o *cliOptions) {
	o.Register(fs, auditflags.Beam, nil)
	fs.Int64Var(&o.SplitBytes, "split-bytes", defaultSplitBytes, "read a plain (uncompressed) LOG file longer than `N` bytes as byte ranges of N bytes, on separate workers; 0 reads each LOG whole")
	fs.BoolVar(&o.json, "json", false, "print summary.json on stdout")
	fs.StringVar(&o.out, "out", "", "write summary.json into `DIR` (on a file system every worker shares)")
}

// config returns the audit configuration of o, or a usage error.
func (o *options) config() (audit.Config, error) {
	cfg, err := o.Values.Config(nil)
	if err != nil {
		if auditflags.IsUsage(err) {
			return cfg, usageErr("%v", err)
		}
		return cfg, err
	}
	if o.SplitBytes < 0 {
		return cfg, usageErr("--split-bytes must not be negative (0 reads each LOG whole)")
	}
	return cfg, nil
}
