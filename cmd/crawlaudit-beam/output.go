package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// maxSummaryBytes bounds the summary.json read back from object storage:
// the audit folds the bot rows past its limit, so a summary stays far
// below it.
const maxSummaryBytes = 1 << 30

// output is where summary.json and agents.json go: --out, a directory (the workers and
// the launcher must see the same one) or a prefix in object storage
// (s3://, gs://, azblob://), which every worker with credentials reaches.
// Each file is written whole or not at all: a directory's by a rename, an
// object's by the store's upload, which makes an object visible only once
// complete.
type output struct {
	// Place is the directory's absolute path, or the URL of the prefix.
	Place string
}

// isURL reports whether the output is in object storage.
func (o output) isURL() bool { return objstore.IsURL(o.Place) }

// name returns how file of the output is shown: its path, or its URL
// without query.
func (o output) name(file string) string {
	if o.isURL() {
		// OpenPrefix adds the "/" a prefix without one lacks.
		base := objstore.Name(o.Place)
		if base[len(base)-1] != '/' {
			base += "/"
		}
		return base + file
	}
	return filepath.Join(o.Place, file)
}

// write writes file whole with what w writes.
func (o output) write(ctx context.Context, file string, w func(io.Writer) error) error {
	return o.writeAll(ctx, []outFile{{file, w}})
}

// outFile is one file of the output and what writes it.
type outFile struct {
	name  string
	write func(io.Writer) error
}

// writeAll writes files as one set, as `crawlaudit audit --out` writes
// its files. Into a directory they appear together or not at all: each
// is written whole under a temporary name, and all are renamed into place
// only when every one is (atomicfile.Staged). Object storage has no
// rename, so there each object is uploaded whole or not at all, one after
// another in the order given, and the first failure stops the rest: the
// caller puts summary.json last, so that a reader who finds this run's
// summary.json finds its other files beside it.
func (o output) writeAll(ctx context.Context, files []outFile) error {
	if !o.isURL() {
		if err := os.MkdirAll(o.Place, 0o755); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		st := atomicfile.NewStaged(o.Place)
		defer st.Abort()
		for _, f := range files {
			if err := st.Write(f.name, f.write); err != nil {
				return err
			}
		}
		return st.Commit()
	}
	p, err := objstore.OpenPrefix(ctx, o.Place)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	defer p.Close()
	for _, f := range files {
		if err := p.Write(ctx, f.name, f.write); err != nil {
			return err
		}
	}
	return nil
}

// read returns file; the error wraps os.ErrNotExist when there is none.
func (o output) read(ctx context.Context, file string) ([]byte, error) {
	if !o.isURL() {
		return os.ReadFile(filepath.Join(o.Place, file))
	}
	p, err := objstore.OpenPrefix(ctx, o.Place)
	if err != nil {
		return nil, fmt.Errorf("--out: %w", err)
	}
	defer p.Close()
	return p.Read(ctx, file, maxSummaryBytes)
}

// remove removes file; one that is not there is no error.
func (o output) remove(ctx context.Context, file string) error {
	if !o.isURL() {
		if err := os.Remove(filepath.Join(o.Place, file)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	p, err := objstore.OpenPrefix(ctx, o.Place)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	defer p.Close()
	return p.Delete(ctx, file)
}

// check opens a prefix in object storage, which refuses a URL that cannot
// be one (https://, no bucket, a pattern) before the pipeline runs.
func (o output) check(ctx context.Context) error {
	if !o.isURL() {
		return nil
	}
	p, err := objstore.OpenPrefix(ctx, o.Place)
	if err != nil {
		return usageErr("--out: %v", err)
	}
	return p.Close()
}
