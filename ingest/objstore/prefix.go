package objstore

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// URL returns a URL that names o alone, query included: Expand of it
// returns o under the same Name, whatever its key holds (a character of a
// glob in its last segment is escaped, so that the pattern matches that
// key only). It lets one process list a prefix and others read its
// objects.
func (o *Object) URL() string {
	if o.bucket == nil {
		return o.url
	}
	u, err := url.Parse(o.url)
	if err != nil {
		// Expand parsed it.
		return o.url
	}
	key := o.key
	dir, last := "", key
	if i := strings.LastIndex(key, "/"); i >= 0 {
		dir, last = key[:i+1], key[i+1:]
	}
	if strings.ContainsAny(last, "*?[") {
		last = globEscaper.Replace(last)
	}
	v := url.URL{Scheme: u.Scheme, Host: u.Host, Path: "/" + dir + last, RawQuery: u.RawQuery}
	return v.String()
}

// globEscaper escapes the characters path.Match gives a meaning.
var globEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)

// Prefix is a place in object storage that a command writes its output
// files into: PREFIX/NAME for each. Each object is written whole or not at
// all (the stores make an upload visible only once it completes).
type Prefix struct {
	bucket *blob.Bucket
	raw    string // the URL given, query included
	base   string // scheme://bucket/prefix/, without query
	prefix string // the keys' prefix, "" or ending in "/"
}

// OpenPrefix opens the place in object storage that raw names (an
// s3://, gs:// or azblob:// URL, query parameters as Expand takes them).
// The URL's key is a prefix, "/" added when it lacks one: the outputs of a
// run go beside one another, as in a directory.
func OpenPrefix(ctx context.Context, raw string) (*Prefix, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, cleanErr(raw, fmt.Errorf("not a valid URL: %w", err))
	}
	scheme := strings.ToLower(u.Scheme)
	switch scheme {
	case "s3", "gs", "azblob":
	default:
		return nil, fmt.Errorf("%s: outputs are written to s3://, gs:// or azblob:// URLs, or to a directory", Name(raw))
	}
	if u.Host == "" {
		return nil, fmt.Errorf("%s: the URL names no bucket (write %s://BUCKET/PREFIX/)", Name(raw), scheme)
	}
	if strings.ContainsAny(u.Path, "*?[") {
		return nil, fmt.Errorf("%s: an output prefix cannot be a pattern", Name(raw))
	}
	b, err := openBucket(ctx, &url.URL{Scheme: scheme, Host: u.Host, RawQuery: u.RawQuery})
	if err != nil {
		return nil, cleanErr(raw, fmt.Errorf("%s: cannot open the bucket: %w", Name(raw), explain(err)))
	}
	prefix := strings.TrimPrefix(u.Path, "/")
	if prefix != "" && !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	return &Prefix{bucket: b, raw: raw, base: scheme + "://" + u.Host + "/" + prefix, prefix: prefix}, nil
}

// Name returns the URL of the output file name, without query.
func (p *Prefix) Name(name string) string { return p.base + name }

// Write writes the object name with what write writes. The object is
// replaced only when write and the upload succeed: on an error the upload
// is aborted and a previous object of that name stays as it was.
func (p *Prefix) Write(ctx context.Context, name string, write func(io.Writer) error) error {
	// Cancelling the writer's context before Close aborts the upload.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := p.bucket.NewWriter(wctx, p.prefix+name, nil)
	if err != nil {
		return cleanErr(p.raw, fmt.Errorf("%s: cannot write: %w", p.Name(name), explain(err)))
	}
	if err := write(w); err != nil {
		cancel()
		w.Close()
		return fmt.Errorf("%s: %w", p.Name(name), err)
	}
	if err := w.Close(); err != nil {
		return cleanErr(p.raw, fmt.Errorf("%s: cannot write: %w", p.Name(name), explain(err)))
	}
	return nil
}

// Read returns the object name, at most limit bytes of it; the error
// wraps fs.ErrNotExist when there is no such object.
func (p *Prefix) Read(ctx context.Context, name string, limit int64) ([]byte, error) {
	r, err := p.bucket.NewReader(ctx, p.prefix+name, nil)
	if err != nil {
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, fmt.Errorf("%s: %w", p.Name(name), fs.ErrNotExist)
		}
		return nil, cleanErr(p.raw, fmt.Errorf("%s: cannot read: %w", p.Name(name), explain(err)))
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, cleanErr(p.raw, fmt.Errorf("%s: cannot read: %w", p.Name(name), explain(err)))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", p.Name(name), limit)
	}
	return data, nil
}

// Delete removes the object name; one that does not exist is no error.
func (p *Prefix) Delete(ctx context.Context, name string) error {
	err := p.bucket.Delete(ctx, p.prefix+name)
	if err == nil || gcerrors.Code(err) == gcerrors.NotFound {
		return nil
	}
	return cleanErr(p.raw, fmt.Errorf("%s: cannot delete: %w", p.Name(name), explain(err)))
}

// Close closes the bucket.
func (p *Prefix) Close() error {
	return p.bucket.Close()
}
