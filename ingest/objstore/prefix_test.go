package objstore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode/utf8"

	"gocloud.dev/blob/memblob"

	"github.com/crawlaudit/crawlaudit/internal/fakes3"
)

// TestObjectURL: the URL of each object listed under a prefix names that
// object alone, under the same name, whatever its key holds. The keys are
// what S3 allows ("Creating object key names": any UTF-8, with characters
// such as "*", "?", "[", "\\", spaces and "%" that "might require special
// handling", https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-keys.html).
func TestObjectURL(t *testing.T) {
	srv := fakes3.Start(t, "logs")
	keys := []string{
		"odd/a*b.log",          // a glob's star
		"odd/a?b.log",          // a URL's query mark, a glob's one character
		"odd/c[1].log",         // a glob's class
		`odd/d\e*.log`,         // a backslash beside a star
		"odd/space and%20.log", // a space and a percent sign
		"odd/ünïcode.log",
		"odd/dir*/plain.log", // a star in a directory, not the last segment
		"odd/aXb.log",        // what "a*b.log" and "a?b.log" would also match as patterns
	}
	for _, k := range keys {
		srv.Put(t, k, []byte("content of "+k+"\n"))
	}
	ctx := context.Background()
	st := &Store{}
	defer st.Close()
	objs, _, err := st.Expand(ctx, srv.URL("odd/"), Period{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != len(keys) {
		t.Fatalf("%d objects listed, want %d", len(objs), len(keys))
	}
	for _, o := range objs {
		u := o.URL()
		if !strings.Contains(u, "endpoint=") {
			t.Errorf("%s: URL %s lost the query", o.Name, u)
		}
		alone, skipped, err := st.Expand(ctx, u, Period{}, nil)
		if err != nil {
			t.Errorf("%s: Expand(%s): %v", o.Name, u, err)
			continue
		}
		if len(alone) != 1 || len(skipped) != 0 || alone[0].Name != o.Name || alone[0].Size != o.Size {
			t.Errorf("%s: Expand(%s) = %+v, skipped %+v; want the object alone", o.Name, u, alone, skipped)
			continue
		}
		r, err := st.Open(ctx, &alone[0])
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(data) != "content of "+strings.TrimPrefix(o.Name, "s3://logs/")+"\n" {
			t.Errorf("%s: read %q, %v", o.Name, data, err)
		}
	}
	// An https:// object's URL is the one given.
	h := Object{Name: "https://example.com/x.log", Size: -1, url: "https://example.com/x.log?sig=abc"}
	if h.URL() != "https://example.com/x.log?sig=abc" {
		t.Errorf("https URL %s", h.URL())
	}
}

// TestPrefixWrite: outputs written under a prefix, read back, replaced
// only by a write that succeeds, deleted.
func TestPrefixWrite(t *testing.T) {
	srv := fakes3.Start(t, "out")
	ctx := context.Background()
	for _, prefix := range []string{"runs/oct", "runs/oct/"} {
		t.Run(prefix, func(t *testing.T) {
			p, err := OpenPrefix(ctx, srv.URL(prefix))
			if err != nil {
				t.Fatal(err)
			}
			defer p.Close()
			if got := p.Name("summary.json"); got != "s3://out/runs/oct/summary.json" {
				t.Errorf("Name = %s", got)
			}
			if err := p.Write(ctx, "summary.json", func(w io.Writer) error {
				_, err := io.WriteString(w, `{"first": true}`)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			// A write that fails halfway leaves the object as it was.
			boom := errors.New("the summary could not be made")
			err = p.Write(ctx, "summary.json", func(w io.Writer) error {
				io.WriteString(w, `{"second": `)
				return boom
			})
			if !errors.Is(err, boom) {
				t.Errorf("failed write: %v", err)
			}
			data, err := p.Read(ctx, "summary.json", 1<<20)
			if err != nil || string(data) != `{"first": true}` {
				t.Errorf("after a failed write: %q, %v", data, err)
			}
			if _, err := p.Read(ctx, "summary.json", 4); err == nil || !strings.Contains(err.Error(), "larger than 4 bytes") {
				t.Errorf("limit: %v", err)
			}
			if err := p.Delete(ctx, "summary.json"); err != nil {
				t.Fatal(err)
			}
			if err := p.Delete(ctx, "summary.json"); err != nil {
				t.Errorf("deleting a missing object: %v", err)
			}
			if _, err := p.Read(ctx, "summary.json", 1<<20); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("read after delete: %v", err)
			}
		})
	}
	for _, tc := range []struct{ raw, want string }{
		{"https://example.com/out/", "outputs are written to s3://, gs:// or azblob:// URLs"},
		{"s3:///out/?region=us-east-1", "names no bucket"},
		{srv.URL("runs/*/"), "cannot be a pattern"},
	} {
		if _, err := OpenPrefix(ctx, tc.raw); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("OpenPrefix(%s): %v, want %q", tc.raw, err, tc.want)
		}
	}
	// The bucket's query never shows in a message; a secret in it neither.
	_, err := OpenPrefix(ctx, "s3://out/x/?region=us-east-1&endpoint=http://127.0.0.1:1&use_path_style=true&token=s3cr3tvalue")
	if err != nil && strings.Contains(err.Error(), "s3cr3tvalue") {
		t.Errorf("a secret in the message: %v", err)
	}
}

// FuzzObjectURL: for any key, the URL of an object names that key alone:
// parsed as Expand parses it, its path is the key, or (when the last
// segment holds a glob's character) a pattern that path.Match matches
// against that key and that unescapes to it; the query is kept.
func FuzzObjectURL(f *testing.F) {
	for _, k := range []string{"cf/E2.2026-10-01-00.a.gz", "a*b", "odd/a?b.log", `d\e*[x].log`, "x/%41 #y", "ü/ï*", "dir*/plain", "a/"} {
		f.Add(k)
	}
	b := memblob.OpenBucket(nil)
	defer b.Close()
	f.Fuzz(func(t *testing.T, key string) {
		if key == "" || !utf8.ValidString(key) {
			return // S3 keys are non-empty UTF-8
		}
		o := Object{bucket: b, key: key, url: "s3://logs/prefix/?region=us-east-1&endpoint=http://127.0.0.1:9000"}
		raw := o.URL()
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%q: URL %q does not parse: %v", key, raw, err)
		}
		if u.Scheme != "s3" || u.Host != "logs" || u.Query().Get("endpoint") != "http://127.0.0.1:9000" {
			t.Fatalf("%q: URL %q", key, raw)
		}
		got := strings.TrimPrefix(u.Path, "/")
		dir, last := "", got
		if i := strings.LastIndex(got, "/"); i >= 0 {
			dir, last = got[:i+1], got[i+1:]
		}
		if !strings.ContainsAny(last, "*?[") {
			if got != key {
				t.Fatalf("%q: URL %q names %q", key, raw, got)
			}
			return
		}
		keyDir, keyLast := "", key
		if i := strings.LastIndex(key, "/"); i >= 0 {
			keyDir, keyLast = key[:i+1], key[i+1:]
		}
		if dir != keyDir {
			t.Fatalf("%q: URL %q lists %q", key, raw, dir)
		}
		if ok, err := path.Match(last, keyLast); !ok || err != nil {
			t.Fatalf("%q: pattern %q does not match it (%v)", key, last, err)
		}
		if un := strings.NewReplacer(`\\`, `\`, `\*`, `*`, `\?`, `?`, `\[`, `[`).Replace(last); un != keyLast {
			t.Fatalf("%q: pattern %q unescapes to %q", key, last, un)
		}
	})
}

// TestBucketOnce: the URLs of many objects of one bucket (as a worker
// gets them from a listing) open it once; another query is another
// bucket.
func TestBucketOnce(t *testing.T) {
	srv := fakes3.Start(t, "logs")
	for _, k := range []string{"cf/a.log", "cf/b.log", "cf/c.log"} {
		srv.Put(t, k, []byte(k+"\n"))
	}
	ctx := context.Background()
	st := &Store{}
	defer st.Close()
	objs, _, err := st.Expand(ctx, srv.URL("cf/"), Period{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if _, _, err := st.Expand(ctx, o.URL(), Period{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(st.buckets); n != 1 {
		t.Errorf("%d buckets opened for one", n)
	}
	if _, _, err := st.Expand(ctx, srv.URL("cf/a.log")+"&disable_https=true", Period{}, nil); err != nil {
		t.Fatal(err)
	}
	if n := len(st.buckets); n != 2 {
		t.Errorf("%d buckets opened, want 2 (two queries)", n)
	}
}
