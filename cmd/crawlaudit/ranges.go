package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/verify"
)

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		ranges := &cobra.Command{
			Use:   "ranges",
			Short: "Manage the crawler operators' published IP range lists",
			Long: `The operators' published IP range lists verify who made each bot request
(who really made a request). The binary carries a dated snapshot of them; "ranges update"
downloads the current lists into a directory that --ranges DIR then uses.`,
		}
		var opt updateFlags
		update := &cobra.Command{
			Use:   "update [--dir DIR]",
			Short: "Download the operators' current IP range lists into dated files",
			Long: `Downloads each operator's published IP range list from its own address and
stores it, as published, in DIR/<source>/<creation time>.json when its prefixes
differ from the newest file already there. The directory keeps the history:
an audit judges each request by the list in effect at its time.

Audit with it: crawlaudit audit --ranges DIR ... (its sources replace the
built-in snapshot's; the others stay).

A list that is implausible is refused and not stored: empty, holding a
default route or special-purpose addresses, keeping fewer than half of the
prefixes of the list stored before it, or dated before 2000 or in the
future (see docs/verification-data.md).

Exit status: 0 every source fetched or unchanged; 2 a source failed or was
refused (the others are still written).`,
			Example: `  crawlaudit ranges update --dir /var/lib/crawlaudit/ranges
  crawlaudit ranges update --dir ranges --sources google-common-crawlers,bingbot`,
			Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				return runRangesUpdate(cmd.Context(), e, &opt)
			},
		}
		opt.register(update.Flags(), "ranges", "directory of dated lists, `DIR`/<source>/<creation time>.json",
			"sources", "comma list of source `NAMES` (default: all; see crawlaudit version)",
			"fetch every list from this `URL`'s scheme and host instead (a mirror)")
		ranges.AddCommand(update)
		return ranges
	})
}

func runRangesUpdate(ctx context.Context, e *env, opt *updateFlags) error {
	ctx, client, err := opt.start(ctx, "ranges update")
	if err != nil {
		return err
	}
	uo := verify.UpdateOptions{BaseURL: opt.baseURL, Sources: commaList(opt.names)}
	results, err := verify.Update(ctx, client, opt.dir, uo)
	lines := make([]updateLine, len(results))
	for i, r := range results {
		l := updateLine{name: r.Source, err: r.Err, refused: errors.Is(r.Err, verify.ErrRefused)}
		switch {
		case r.Skipped != "":
			l.done = "skipped: " + r.Skipped
		case r.Unchanged:
			l.done = fmt.Sprintf("unchanged (%d prefixes, %s)", r.Prefixes, r.Created.UTC().Format(time.RFC3339))
		default:
			l.done = fmt.Sprintf("new list: %d prefixes, %s → %s", r.Prefixes, r.Created.UTC().Format(time.RFC3339), filepath.ToSlash(r.File))
		}
		for _, d := range r.Dropped {
			l.warnings = append(l.warnings, d+" (audits drop it)")
		}
		lines[i] = l
	}
	return reportUpdate(e, updateReport{cmd: "ranges update", what: "sources", kept: "the list", width: 32, dir: opt.dir}, lines, err)
}

// loadRanges returns the built-in snapshot with the sources of dir in place
// of its own, and tells stderr of each list of dir refused or trimmed.
func loadRanges(stderr io.Writer, dir string) (*verify.Ranges, error) {
	snap, err := verify.Snapshot()
	if err != nil {
		return nil, err
	}
	over, err := verify.LoadDir(dir)
	if err != nil {
		return nil, err
	}
	printListNotes(stderr, over.Info())
	return snap.Override(over), nil
}

// printListNotes tells of the lists of a --ranges directory that were
// refused, or used without some special-purpose entries.
func printListNotes(w io.Writer, infos []verify.SourceInfo) {
	for _, si := range infos {
		for _, n := range si.Refused {
			fmt.Fprintf(w, "crawlaudit: --ranges: %s: list refused: %s.\n  The %s list before it stays in effect; until a list is accepted, an address outside it is unverified, not spoofed. Replace the file with a correct list (crawlaudit ranges update) or remove it.\n",
				report.Printable(n.File, 200), strings.Join(n.Reasons, "; "), si.Name)
		}
		for _, n := range si.Dropped {
			fmt.Fprintf(w, "crawlaudit: --ranges: %s: used without %d special-purpose entries: %s\n",
				report.Printable(n.File, 200), len(n.Reasons), strings.Join(n.Reasons, "; "))
		}
	}
}
