package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// keysShowOptions are the flags of `crawlaudit keys show`.
type keysShowOptions struct {
	keys string
}

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		keys := &cobra.Command{
			Use:   "keys",
			Short: "Manage the key directories of signed crawlers and agents (Web Bot Auth)",
			Long: `Signed crawlers and agents (Web Bot Auth, RFC 9421) publish their public keys at
{origin}/.well-known/http-message-signatures-directory. The binary carries a dated
snapshot of the known signers' directories; "keys update" downloads the current
ones into a directory of dated files. See docs/signatures.md.`,
		}
		var uopt updateFlags
		update := &cobra.Command{
			Use:   "update [--dir DIR]",
			Short: "Download the signers' current key directories into dated files",
			Long: `Downloads each known signer's key directory and stores it, as served, in
DIR/<signer host>/<fetch instant>.json when its keys differ from the newest file
already there. The directory keeps the history: a signature is checked against
the keys its signer published at the request's time.

A directory that is not a JWKS, or holds no key of a supported type (Ed25519,
P-256, RSA), is refused and not stored.

Exit status: 0 every signer fetched or unchanged; 2 a signer failed or was
refused (the others are still written).`,
			Example: `  crawlaudit keys update --dir /var/lib/crawlaudit/keys
  crawlaudit keys update --dir keys --signers chatgpt.com`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runKeysUpdate(cmd.Context(), e, &uopt)
			},
		}
		uopt.register(update.Flags(), "keys", "directory of dated key directories, `DIR`/<signer host>/<instant>.json",
			"signers", "comma list of signer `HOSTS` (default: the signer table and every host DIR holds)",
			"fetch every directory from this `URL`'s scheme and host instead (a mirror)")
		keys.AddCommand(update)

		var sopt keysShowOptions
		show := &cobra.Command{
			Use:   "show [--keys DIR]",
			Short: "List the known signers, their key directories by date, and their sources",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runKeysShow(e, &sopt)
			},
		}
		show.Flags().StringVar(&sopt.keys, "keys", "", "also read `DIR`/<signer host>/<instant>.json, whose signers replace the built-in ones")
		keys.AddCommand(show)
		return keys
	})
}

func runKeysUpdate(ctx context.Context, e *env, opt *updateFlags) error {
	ctx, client, err := opt.start(ctx, "keys update")
	if err != nil {
		return err
	}
	uo := webbotauth.UpdateOptions{BaseURL: opt.baseURL, Hosts: commaList(opt.names)}
	results, err := webbotauth.Update(ctx, client, opt.dir, uo)
	lines := make([]updateLine, len(results))
	for i, r := range results {
		l := updateLine{name: r.Host, err: r.Err, refused: errors.Is(r.Err, webbotauth.ErrRefused)}
		if r.Unchanged {
			l.done = fmt.Sprintf("unchanged (%d keys)", r.Keys)
		} else {
			l.done = fmt.Sprintf("new directory: %d keys → %s", r.Keys, filepath.ToSlash(r.File))
		}
		for _, n := range r.Notes {
			l.warnings = append(l.warnings, n+" (not used)")
		}
		lines[i] = l
	}
	return reportUpdate(e, updateReport{cmd: "keys update", what: "signers", kept: "the directory", width: 28, dir: opt.dir}, lines, err)
}

func runKeysShow(e *env, opt *keysShowOptions) error {
	keys, err := webbotauth.Snapshot()
	if err != nil {
		return err
	}
	if opt.keys != "" {
		over, notes, err := webbotauth.LoadDir(opt.keys)
		if err != nil {
			return usageErr("keys show: %v", err)
		}
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "crawlaudit: --keys: %s: %s\n", report.Printable(n.File, 200), n.Reason)
		}
		keys = keys.Override(over)
	}
	for _, h := range keys.Hosts() {
		who := "(not in the signer table)"
		if s, ok := webbotauth.SignerFor("https://" + h); ok {
			who = s.Agent + ", " + s.Operator
		}
		fmt.Fprintf(e.stdout, "%s\t%s\n", h, who)
		for _, v := range keys.Versions(h) {
			fmt.Fprintf(e.stdout, "  %s\t%d keys\t%s\n", v.At.Format(time.RFC3339), v.Keys, report.Printable(v.Source, 200))
		}
	}
	return nil
}

// loadKeysDir reads a --keys directory: its signers' key directories, with
// a warning on w for each file skipped, and the signers its signers.json
// adds. A directory that cannot be read, or holds no key at all, is an
// error: the audit would verify nothing with it.
func loadKeysDir(w io.Writer, dir string) (*webbotauth.Keys, []webbotauth.Signer, error) {
	keys, notes, err := webbotauth.LoadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	for _, n := range notes {
		fmt.Fprintf(w, "crawlaudit: warning: --keys: %s: %s\n", n.File, n.Reason)
	}
	if len(keys.Hosts()) == 0 {
		return nil, nil, fmt.Errorf("%s holds no key directory: want %s/<signer host>/<RFC 3339 instant>.json, each a JWKS (crawlaudit keys update --dir %s makes them)", dir, dir, dir)
	}
	signers, err := webbotauth.LoadSigners(dir)
	if err != nil {
		return nil, nil, err
	}
	return keys, signers, nil
}
