package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// ingestOptions are the flags of `crawlaudit ingest`.
type ingestOptions struct {
	format, logFormat, jsonFields string
	json                          bool
	parquet                       string
	batchRows, workers            int
	maxLineBytes                  int
	keepGoing, quiet              bool
}

// parquetRowGroupRows is the number of rows after which the Parquet writer
// closes a row group: it bounds the memory of the buffered row group.
const parquetRowGroupRows = 1 << 20

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		var opt ingestOptions
		cmd := &cobra.Command{
			Use:   "ingest [flags] LOG...",
			Short: "Read access logs: detected formats and an account of every line",
			Long: `Reads access logs as audit does and prints, per file, the detected format and
compression, and an account of its lines: parsed, rejected (per reason, with the
first rejected lines), directive lines, the time span. With --parquet it also
writes the parsed requests as a Parquet file, for DuckDB, pandas or Spark.

LOG is a file (plain, gzip, zstd or bzip2: detected by content, not by name), a
directory (its log files, recursively; hidden files and obvious non-logs such
as .txt, .md, .csv are skipped and listed), a glob, - for standard input, or a
URL: s3://, gs://, azblob:// (a prefix ending in /, a glob, one object) or
https:// (one object).
The format of each file is detected by a vote over its first 50 lines unless
--format, --log-format or --json-fields is given.

Counting: "lines" are the non-empty lines that are requests or should have
been; lines = parsed + rejected. Empty lines are not counted; directive lines
(W3C "#Fields:") are counted apart. Invalid UTF-8 is kept, written as \xHH.

Exit status: 0 success; 2 usage or input error (a file that cannot be read, a
truncated compressed file: reported after the account, unless --keep-going).`,
			Example: `  # what is in last month's logs, and how well it parses
  crawlaudit ingest /var/log/nginx/access.log*

  # an IIS log directory, as JSON, and the requests as Parquet
  crawlaudit ingest --json --parquet requests.parquet C:/inetpub/logs/LogFiles/W3SVC1

  # a custom nginx log_format
  crawlaudit ingest --log-format '$remote_addr [$time_local] "$request" $status $body_bytes_sent "$http_user_agent"' app.log`,
			Args: needArgs("ingest", "no LOG given: name the access log files or directories to read, or - for standard input"),
			RunE: func(cmd *cobra.Command, args []string) error {
				return runIngest(cmd.Context(), e, &opt, args)
			},
		}
		f := cmd.Flags()
		f.StringVar(&opt.format, "format", "auto", "log format: auto, or one of "+strings.Join(formatNames(), ", "))
		f.StringVar(&opt.logFormat, "log-format", "", "an Apache LogFormat or nginx log_format `LAYOUT` the logs follow")
		f.StringVar(&opt.jsonFields, "json-fields", "", "explicit JSON key `MAPPING` (time=ts,client_ip=request.remote_ip,forwarded_for=xff,...)")
		f.BoolVar(&opt.json, "json", false, "print the account as JSON")
		f.StringVar(&opt.parquet, "parquet", "", "write the parsed requests to the Parquet `FILE` (atomically)")
		f.IntVar(&opt.batchRows, "batch-rows", 0, "rows per Arrow record batch (default 32768)")
		f.IntVar(&opt.workers, "workers", 0, "parsing goroutines (default: one per core)")
		f.IntVar(&opt.maxLineBytes, "max-line-bytes", 0, "longest log line accepted (default 65536)")
		f.BoolVar(&opt.keepGoing, "keep-going", false, "exit 0 despite input errors (unreadable or truncated files)")
		f.BoolVarP(&opt.quiet, "quiet", "q", false, "no progress bar")
		return cmd
	})
}

// runIngest runs `crawlaudit ingest`.
func runIngest(ctx context.Context, e *env, opt *ingestOptions, logs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if opt.batchRows < 0 || opt.workers < 0 || opt.maxLineBytes < 0 {
		return usageErr("ingest: --batch-rows, --workers and --max-line-bytes must not be negative")
	}
	opts := ingest.Options{
		Format:       opt.format,
		LogFormat:    opt.logFormat,
		JSONFields:   opt.jsonFields,
		BatchRows:    opt.batchRows,
		Workers:      opt.workers,
		MaxLineBytes: opt.maxLineBytes,
		Stdin:        e.stdin,
	}
	if e.stderrTTY && !opt.quiet {
		opts.Progress = e.stderr
	}
	var acc *ingest.Accounting
	var inputErr error
	if opt.parquet == "" {
		acc, inputErr = ingest.Run(ctx, logs, opts, func(arrow.RecordBatch) error { return nil })
		if acc == nil {
			return usageErr("ingest: %v", inputErr)
		}
	} else {
		err := atomicfile.WriteWith(opt.parquet, func(w io.Writer) error {
			props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd), parquet.WithDictionaryDefault(true))
			fw, err := pqarrow.NewFileWriter(ingest.Schema, w, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
			if err != nil {
				return err
			}
			acc, inputErr = ingest.Run(ctx, logs, opts, func(rec arrow.RecordBatch) error {
				if n, err := fw.RowGroupNumRows(); err == nil && n >= parquetRowGroupRows {
					fw.NewBufferedRowGroup()
				}
				return fw.WriteBuffered(rec)
			})
			if acc == nil {
				fw.Close()
				return inputErr
			}
			var fe *ingest.FileError
			if inputErr != nil && !errors.As(inputErr, &fe) {
				// The sink failed, or the run was cancelled: no file.
				fw.Close()
				return inputErr
			}
			return fw.Close()
		})
		if acc == nil {
			return usageErr("ingest: %v", inputErr)
		}
		if err != nil {
			return usageErr("ingest: --parquet %s: %v", opt.parquet, err)
		}
	}
	if opt.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(acc); err != nil {
			return err
		}
	} else {
		writeIngestTable(e.stdout, acc)
	}
	if opt.parquet != "" && !opt.json {
		fmt.Fprintf(e.stderr, "Wrote %d rows to %s\n", acc.Parsed, opt.parquet)
	}
	if inputErr != nil {
		if opt.keepGoing {
			fmt.Fprintf(e.stderr, "crawlaudit: warning: %v\n", inputErr)
			return nil
		}
		return &exitError{code: exitUsage, err: fmt.Errorf("ingest: %s (the account above covers what could be read; --keep-going exits 0)", firstLineOf(inputErr))}
	}
	return nil
}

// safe makes a string from a log (a file name, a rejected line) harmless on
// a terminal: control characters are written as \xHH.
func safe(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, `\x%02X`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// writeIngestTable prints the account for people.
func writeIngestTable(w io.Writer, acc *ingest.Accounting) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FILE\tFORMAT\tCOMPRESSION\tLINES\tPARSED\tREJECTED\tDIRECTIVES\tBYTES READ\t")
	for _, f := range acc.PerFile {
		format := f.Format
		switch {
		case format == "":
			format = "-"
		case f.Detected:
			format += " (detected)"
		}
		comp := f.Compression
		if comp == "" {
			comp = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t\n", safe(f.Name), format, comp, f.Lines, f.Parsed, f.Rejected, f.Directives, f.BytesRead)
	}
	fmt.Fprintf(tw, "total (%d files)\t\t\t%d\t%d\t%d\t%d\t\t\n", acc.Files, acc.Lines, acc.Parsed, acc.Rejected, acc.Directives)
	tw.Flush()
	if !acc.From.IsZero() {
		fmt.Fprintf(w, "\nTime span: %s .. %s\n", acc.From.Format("2006-01-02T15:04:05.999999Z07:00"), acc.To.Format("2006-01-02T15:04:05.999999Z07:00"))
	}
	if len(acc.RejectedReasons) > 0 {
		fmt.Fprintln(w, "\nRejected lines by reason:")
		reasons := slices.SortedFunc(maps.Keys(acc.RejectedReasons), func(a, b string) int {
			if d := acc.RejectedReasons[b] - acc.RejectedReasons[a]; d != 0 {
				return int(min(max(d, -1), 1))
			}
			return strings.Compare(a, b)
		})
		for _, r := range reasons {
			fmt.Fprintf(w, "  %-24s %d\n", r, acc.RejectedReasons[r])
			for _, s := range acc.Samples {
				if s.Reason == r {
					fmt.Fprintf(w, "    %s:%d: %s\n", safe(s.File), s.Line, safe(s.Text))
				}
			}
		}
	}
	if len(acc.Skipped) > 0 {
		fmt.Fprintln(w, "\nSkipped:")
		for _, s := range acc.Skipped {
			fmt.Fprintf(w, "  %s (%s)\n", safe(s.Name), s.Reason)
		}
	}
	var errs []string
	for _, f := range acc.PerFile {
		if f.Error != "" {
			errs = append(errs, f.Error)
		}
	}
	if len(errs) > 0 {
		fmt.Fprintln(w, "\nInput errors:")
		for _, e := range errs {
			fmt.Fprintf(w, "  %s\n", safe(e))
		}
	}
}
