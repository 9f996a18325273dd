//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
)

// PublishOptions are the outputs of a run, as its flags name them.
type PublishOptions struct {
	// Out is --out DIR: the files of WriteOut ("" for none).
	Out string
	// Parquet is --parquet DIR: the dataset of StageParquet.
	Parquet string
	// Report is --report FILE.html: report.html alone.
	Report string
	// Block is the block-list policy of the --out files and the reports.
	Block BlockPolicy
	// Replace: the outputs may be replaced. A run with an input error (a
	// truncated or damaged file) replaces none of --out, --db and
	// --parquet unless --keep-going: a complete earlier set is worth more
	// than a partial one.
	Replace bool
	// BlockList: Summary.Blocklist is wanted even without --out (--json
	// prints it).
	BlockList bool
}

// Published says what Publish wrote.
type Published struct {
	// Parquet describes the dataset written into PublishOptions.Parquet;
	// nil when none was.
	Parquet *ParquetStats
}

// Publish writes the outputs o names, in the one order that never shows a
// reader two runs at once: the Parquet dataset under a temporary name,
// then the --out files (with the audit kept with Config.DB in the same
// commit unless --report still reads it), the dataset put in place, the
// --report page, and last the database renamed over Config.DB. Nothing
// slow stands between the renames. On an error, what was not yet renamed
// into place is removed and the earlier outputs stay as they were; the
// error names the flag of the output.
//
// Publish ends the result: the database is closed (an audit in memory is
// freed in the background, as the process's exit would free it faster
// than DuckDB does piece by piece) and an uncommitted Config.DB removed.
// Summary and Warnings stay for the caller to print.
func (r *Result) Publish(ctx context.Context, o PublishOptions) (Published, error) {
	var pub Published
	committed := false
	defer func() {
		if committed {
			return
		}
		if r.dbFinal == "" {
			go r.Close()
			return
		}
		r.Close() // removes the new audit: the file stays as it was
	}()
	fail := func(flag string, err error) (Published, error) {
		if ctx.Err() != nil {
			return pub, ctx.Err()
		}
		if flag == "" {
			return pub, err
		}
		return pub, fmt.Errorf("%s: %w", flag, err)
	}
	var dataset *StagedParquet
	if o.Parquet != "" && o.Replace {
		var err error
		if dataset, err = r.StageParquet(ctx, o.Parquet); err != nil {
			return fail("--parquet "+o.Parquet, err)
		}
		defer dataset.Abort()
	}
	if o.Out != "" && o.Replace {
		if r.dbFinal != "" && o.Report == "" {
			// One commit for both: never --out of this run beside --db
			// of the last (--report still reads the database after).
			r.PublishDBWithOut()
		}
		if err := r.WriteOut(ctx, o.Out, o.Block); err != nil {
			return fail("--out "+o.Out, err)
		}
	}
	if dataset != nil {
		if err := dataset.Commit(); err != nil {
			return fail("--parquet "+o.Parquet, err)
		}
		pub.Parquet = &dataset.Stats
	}
	if o.Report != "" && o.Replace {
		if err := r.WriteReport(ctx, o.Report, o.Block); err != nil {
			return fail("--report "+o.Report, err)
		}
	}
	// summary.json's "blocklist" is in --json too: the list --out would
	// write. A plain table run skips it, as it needs the measures table.
	if o.BlockList && r.Summary.Blocklist == nil {
		if _, _, err := r.BlockList(ctx, o.Block); err != nil {
			return fail("", err)
		}
	}
	if r.dbFinal != "" && o.Replace {
		if err := r.Commit(); err != nil {
			return fail("--db", err)
		}
		committed = true
	}
	return pub, nil
}
