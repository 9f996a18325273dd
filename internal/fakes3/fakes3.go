package fakes3

import (
	"bytes"
	"compress/gzip"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3afero"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"github.com/spf13/afero"
)

// Credentials set in the environment by Start: the AWS SDK's standard
// chain finds them there, as it would a user's. The secret is distinctive
// so that a test can check it never appears in any output.
const (
	AccessKeyID     = "AKIAFAKES3TESTKEY"
	SecretAccessKey = "fakes3-secret-6f1d2c9a-never-printed"
	SessionToken    = "fakes3-session-token-3b7e-never-printed"
)

// Server is an S3 server on 127.0.0.1 holding one bucket.
type Server struct {
	// Endpoint is the server's base URL, http://127.0.0.1:PORT.
	Endpoint string
	// Bucket is the name of its bucket.
	Bucket  string
	backend gofakes3.Backend
}

// Start starts a server whose bucket keeps its objects in memory, closed
// when tb ends, and sets the AWS credentials of the environment (which
// tb.Setenv restores).
func Start(tb testing.TB, bucket string) *Server {
	tb.Helper()
	be := s3mem.New()
	if err := be.CreateBucket(bucket); err != nil {
		tb.Fatal(err)
	}
	return serve(tb, bucket, be)
}

// StartDir starts a server whose bucket is the directory dir: its files
// are the objects, streamed from disk on every GET (a benchmark's large
// object is never held in memory).
func StartDir(tb testing.TB, bucket, dir string) *Server {
	tb.Helper()
	be, err := dirBackend(bucket, dir)
	if err != nil {
		tb.Fatal(err)
	}
	return serve(tb, bucket, be)
}

// DirHandler is an S3 server whose one bucket is the directory dir, as
// StartDir serves it, for a server in a process of its own (see
// cmd/fakes3serve). It checks no signature: any credentials do.
func DirHandler(bucket, dir string) (http.Handler, error) {
	be, err := dirBackend(bucket, dir)
	if err != nil {
		return nil, err
	}
	return gofakes3.New(be, gofakes3.WithLogger(gofakes3.DiscardLog())).Server(), nil
}

func dirBackend(bucket, dir string) (gofakes3.Backend, error) {
	fs, err := s3afero.NewBasePathFs(afero.NewOsFs(), dir, 0)
	if err != nil {
		return nil, err
	}
	metaFs := afero.NewMemMapFs()
	if err := writeMeta(metaFs, bucket, dir); err != nil {
		return nil, err
	}
	return s3afero.SingleBucket(bucket, fs, metaFs)
}

// writeMeta writes, for every file under dir, the metadata s3afero keeps
// of an object, as s3afero names it: without it, s3afero computes the MD5
// of the whole object at every GET, HEAD and listing before it sends a
// byte, which would count the server's hashing in a benchmark of reading.
// The hash written is the MD5 of the key, not of the content: nothing here
// checks an ETag against the content.
func writeMeta(metaFs afero.Fs, bucket, dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		object := filepath.ToSlash(rel)
		h := fnv.New128a()
		h.Write([]byte(object))
		name := strings.NewReplacer("/", "_", "\\", "_").Replace(object) + "-" + hex.EncodeToString(h.Sum(nil))
		sum := md5.Sum([]byte(object))
		data, err := json.Marshal(s3afero.Metadata{File: object, ModTime: info.ModTime(), Size: info.Size(), Hash: sum[:]})
		if err != nil {
			return err
		}
		return afero.WriteFile(metaFs, filepath.Join(bucket, name), data, 0o644)
	})
}

func serve(tb testing.TB, bucket string, be gofakes3.Backend) *Server {
	faker := gofakes3.New(be, gofakes3.WithLogger(gofakes3.DiscardLog()))
	srv := httptest.NewServer(faker.Server())
	tb.Cleanup(srv.Close)
	tb.Setenv("AWS_ACCESS_KEY_ID", AccessKeyID)
	tb.Setenv("AWS_SECRET_ACCESS_KEY", SecretAccessKey)
	tb.Setenv("AWS_SESSION_TOKEN", SessionToken)
	// No shared profile or instance role of the machine running the
	// test: the environment is the whole chain.
	tb.Setenv("AWS_CONFIG_FILE", "/nonexistent/crawlaudit-test-aws-config")
	tb.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/crawlaudit-test-aws-credentials")
	tb.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	tb.Setenv("AWS_PROFILE", "")
	return &Server{Endpoint: srv.URL, Bucket: bucket, backend: be}
}

// Put stores data under key.
func (s *Server) Put(tb testing.TB, key string, data []byte) {
	tb.Helper()
	if _, err := s.backend.PutObject(s.Bucket, key, map[string]string{}, bytes.NewReader(data), int64(len(data)), nil); err != nil {
		tb.Fatalf("put %s: %v", key, err)
	}
}

// URL returns the s3:// URL of path in the bucket (a key, a prefix ending
// in "/", or a glob), with the query parameters of gocloud's s3blob that
// point it at this server: endpoint, use_path_style and region.
func (s *Server) URL(path string) string {
	q := url.Values{}
	q.Set("endpoint", s.Endpoint)
	q.Set("use_path_style", "true")
	q.Set("region", "us-east-1")
	return "s3://" + s.Bucket + "/" + path + "?" + q.Encode()
}

// CloudFrontObjects cuts a plain access log (one line per request, each
// with a CLF timestamp "[02/Oct/2026:13:55:36 +0200]") into one gzip object
// per UTC day of its requests, in the order of its lines, named as
// CloudFront names its log files: "<dist>.YYYY-MM-DD-00.<unique ID>.gz".
// It returns the keys in order and the objects by key; lines without a
// timestamp go with the line before them.
func CloudFrontObjects(tb testing.TB, log []byte, dist string) ([]string, map[string][]byte) {
	tb.Helper()
	var keys []string
	bufs := map[string]*bytes.Buffer{}
	key := ""
	for _, line := range bytes.SplitAfter(log, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if i := bytes.IndexByte(line, '['); i >= 0 {
			if j := bytes.IndexByte(line[i:], ']'); j > 0 {
				if t, err := time.Parse("02/Jan/2006:15:04:05 -0700", string(line[i+1:i+j])); err == nil {
					d := t.UTC().Format("2006-01-02")
					h := fnv.New32a()
					h.Write([]byte(d))
					key = fmt.Sprintf("%s.%s-00.%08x.gz", dist, d, h.Sum32())
				}
			}
		}
		if key == "" {
			tb.Fatalf("the log's first line has no timestamp: %q", line)
		}
		if bufs[key] == nil {
			bufs[key] = &bytes.Buffer{}
			keys = append(keys, key)
		}
		bufs[key].Write(line)
	}
	objs := map[string][]byte{}
	for k, b := range bufs {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write(b.Bytes())
		if err := zw.Close(); err != nil {
			tb.Fatal(err)
		}
		objs[k] = z.Bytes()
	}
	return keys, objs
}

// CloudFrontSample reads the gzipped combined log at gzPath, cuts it into
// CloudFront-named gzip objects of distribution dist (CloudFrontObjects),
// and stores them in a new fake bucket under prefix and as files in a
// temporary directory: the same bytes from S3 and from disk. It returns the
// server, the directory and the object names (without prefix).
func CloudFrontSample(tb testing.TB, gzPath, bucket, prefix, dist string) (*Server, string, []string) {
	tb.Helper()
	gz, err := os.ReadFile(gzPath)
	if err != nil {
		tb.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		tb.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	keys, objs := CloudFrontObjects(tb, plain, dist)
	srv := Start(tb, bucket)
	dir := tb.TempDir()
	for _, k := range keys {
		srv.Put(tb, prefix+k, objs[k])
		if err := os.WriteFile(filepath.Join(dir, k), objs[k], 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return srv, dir, keys
}
