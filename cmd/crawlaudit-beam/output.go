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

// output is where summary.json goes: --out, a directory (the workers and
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
	if !o.isURL() {
		if err := os.MkdirAll(o.Place, 0o755); err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		return atomicfile.WriteWith(filepath.Join(o.Place, file), w)
	}
	p, err := objstore.OpenPrefix(ctx, o.Place)
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	defer p.Close()
	return p.Write(ctx, file, w)
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
