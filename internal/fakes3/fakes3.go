package fakes3

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"hash/fnv"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

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
	fs, err := s3afero.NewBasePathFs(afero.NewOsFs(), dir, 0)
	if err != nil {
		tb.Fatal(err)
	}
	metaFs := afero.NewMemMapFs()
	if err := writeMeta(metaFs, bucket, dir); err != nil {
		tb.Fatal(err)
	}
	be, err := s3afero.SingleBucket(bucket, fs, metaFs)
	if err != nil {
		tb.Fatal(err)
	}
	return serve(tb, bucket, be)
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
