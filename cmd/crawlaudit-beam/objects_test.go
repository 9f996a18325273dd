package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/auditflags"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/objstore"
	"github.com/crawlaudit/crawlaudit/internal/fakes3"
	"github.com/crawlaudit/crawlaudit/report"
)

// sampleBucket starts an S3 server on 127.0.0.1 (internal/fakes3) whose
// bucket "logs" holds the sample month cut into one CloudFront-named gzip
// object per day under cf/ (as CloudFront delivers a distribution's logs),
// beside a README that is not a log, and returns it with the number of
// log objects. The credentials are in the environment, where the AWS
// SDK's standard chain finds them.
func sampleBucket(t *testing.T) (*fakes3.Server, int) {
	t.Helper()
	gz, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	keys, objs := fakes3.CloudFrontObjects(t, plain, "E2SAMPLE")
	srv := fakes3.Start(t, "logs")
	for _, k := range keys {
		srv.Put(t, "cf/"+k, objs[k])
	}
	srv.Put(t, "cf/README.txt", []byte("CloudFront logs of the sample site\n"))
	return srv, len(keys)
}

// TestPipelineObjects checks that the pipeline reads LOG URLs of object
// storage as `crawlaudit audit` does: summary.json equal to audit's for a
// prefix (its objects read one per piece, on separate workers, and all in
// one piece), a prefix with --from/--to (the objects dated outside the
// period listed as skipped, not read; a few objects a piece) and a glob
// beside a file; and that --out may be a prefix of the bucket.
func TestPipelineObjects(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pipelines on Prism")
	}
	srv, days := sampleBucket(t)
	// The sample month as one object of a web server, with a query (a
	// presigned URL's) that must be shown nowhere.
	gz, err := os.ReadFile(sampleLog)
	if err != nil {
		t.Fatal(err)
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/logs/access-2026-10.log.gz" || r.URL.Query().Get("X-Amz-Signature") != "presigned-signature" {
			http.NotFound(w, r)
			return
		}
		w.Write(gz)
	}))
	defer web.Close()
	// A directory with a file that is not a log: audit lists it as
	// skipped, and so must the pipeline.
	logDir := t.TempDir()
	if err := os.WriteFile(logDir+"/access-2026-10.log.gz", gz, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logDir+"/README.txt", []byte("the site's logs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// --split-bytes 1: one object per piece, each judged alone.
	base := options{Values: auditflags.Values{Robots: sampleRobots, Grace: 24 * time.Hour}, SplitBytes: 1}
	whole := base
	whole.SplitBytes = 0
	period := base
	period.From, period.To = "2026-10-10", "2026-10-12T23:59:59Z"
	period.SplitBytes = 70_000 // two or three objects a piece
	for _, tc := range []struct {
		name  string
		opt   options
		logs  []string
		check func(t *testing.T, s *report.Summary)
	}{
		{"prefix", base, []string{srv.URL("cf/")}, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != days || len(s.Bots) < 10 || len(s.Input.Skipped) != 1 || s.Input.Skipped[0].Name != "s3://logs/cf/README.txt" {
				t.Errorf("%d files (want %d), %d bot rows, skipped %+v", s.Input.Files, days, len(s.Bots), s.Input.Skipped)
			}
		}},
		{"prefix, --from/--to", period, []string{srv.URL("cf/")}, func(t *testing.T, s *report.Summary) {
			dated := 0
			for _, sk := range s.Input.Skipped {
				if strings.Contains(sk.Reason, "--from/--to") {
					dated++
				}
			}
			// Days 9 to 13 are read: the period and a day's margin.
			if s.Input.Files != 5 || dated != days-5 || s.Input.OutsidePeriod == 0 {
				t.Errorf("%d files, %d skipped by date, %d outside the period", s.Input.Files, dated, s.Input.OutsidePeriod)
			}
		}},
		{"prefix, one piece", whole, []string{srv.URL("cf/")}, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != days {
				t.Errorf("%d files, want %d", s.Input.Files, days)
			}
		}},
		{"https:// object beside a prefix", base, []string{web.URL + "/logs/access-2026-10.log.gz?X-Amz-Signature=presigned-signature", srv.URL("cf/E2SAMPLE.2026-10-0*")}, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != 10 || len(s.Bots) < 10 {
				t.Errorf("%d files (want the web server's and nine days), %d bot rows", s.Input.Files, len(s.Bots))
			}
		}},
		{"directory with a file that is not a log", base, []string{logDir}, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != 1 || len(s.Input.Skipped) != 1 || !strings.HasSuffix(s.Input.Skipped[0].Name, "README.txt") {
				t.Errorf("%d files, skipped %+v", s.Input.Files, s.Input.Skipped)
			}
		}},
		{"glob and a file", base, []string{srv.URL("cf/E2SAMPLE.2026-10-2*.gz"), sampleLog}, func(t *testing.T, s *report.Summary) {
			if s.Input.Files != 11 {
				t.Errorf("%d files, want the ten days of the 20s and the file", s.Input.Files)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := auditJSON(t, tc.opt, tc.logs)
			got := beamJSON(t, tc.opt, tc.logs)
			if !bytes.Equal(got, want) {
				t.Errorf("summary.json differs from crawlaudit audit --json's:\n%s", diffLines(want, got))
			}
			if bytes.Contains(got, []byte("endpoint=")) || bytes.Contains(got, []byte(fakes3.SecretAccessKey)) || bytes.Contains(got, []byte("presigned-signature")) {
				t.Error("summary.json shows a URL's query or the credentials")
			}
			var s report.Summary
			if err := json.Unmarshal(got, &s); err != nil {
				t.Fatal(err)
			}
			tc.check(t, &s)
		})
	}

	t.Run("--out s3://", func(t *testing.T) {
		ctx := context.Background()
		out := srv.URL("audits/2026-10")
		prefix, err := objstore.OpenPrefix(ctx, out)
		if err != nil {
			t.Fatal(err)
		}
		defer prefix.Close()
		// A previous run's summary, replaced.
		if err := prefix.Write(ctx, summaryFile, func(w io.Writer) error { _, err := io.WriteString(w, "{}\n"); return err }); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		o := &cliOptions{options: base, json: true, out: out}
		if code := run(ctx, o, []string{srv.URL("cf/")}, &stdout, &stderr); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr.Bytes())
		}
		written, err := prefix.Read(ctx, summaryFile, maxSummaryBytes)
		if err != nil {
			t.Fatal(err)
		}
		if len(written) < 1000 || !bytes.Equal(written, stdout.Bytes()) {
			t.Errorf("--out wrote %d bytes, --json printed %d", len(written), stdout.Len())
		}
		agents, err := prefix.Read(ctx, agentsFile, maxSummaryBytes)
		if err != nil || !bytes.HasPrefix(agents, []byte("{")) || len(agents) < 100 {
			t.Errorf("%s: %d bytes, %v", prefix.Name(agentsFile), len(agents), err)
		}
		if _, err := prefix.Read(ctx, errorFile, maxSummaryBytes); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the error object: %v", err)
		}
		if bytes.Contains(stderr.Bytes(), []byte(fakes3.SecretAccessKey)) || bytes.Contains(stderr.Bytes(), []byte(fakes3.SessionToken)) {
			t.Error("the credentials were printed")
		}

		// An audit that reads nothing leaves the summary as it was and says
		// why, naming the objects without their query.
		stdout.Reset()
		stderr.Reset()
		o = &cliOptions{options: base, out: out}
		if err := prefix.Write(ctx, "other/x.log", func(w io.Writer) error { return nil }); err != nil {
			t.Fatal(err)
		}
		code := run(ctx, o, []string{srv.URL("none/")}, &stdout, &stderr)
		if code != exitError || !strings.Contains(stderr.String(), "s3://logs/none/") || strings.Contains(stderr.String(), "endpoint=") {
			t.Errorf("an empty prefix: exit %d, %s", code, stderr.Bytes())
		}
		if again, err := prefix.Read(ctx, summaryFile, maxSummaryBytes); err != nil || !bytes.Equal(again, written) {
			t.Errorf("the failed run touched summary.json: %v", err)
		}
		if again, err := prefix.Read(ctx, agentsFile, maxSummaryBytes); err != nil || !bytes.Equal(again, agents) {
			t.Errorf("the failed run touched agents.json: %v", err)
		}
		if _, err := prefix.Read(ctx, errorFile, maxSummaryBytes); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the error object was left: %v", err)
		}
	})

	t.Run("--out refused", func(t *testing.T) {
		for _, out := range []string{"https://example.com/audits/", srv.URL("audits/*/")} {
			o := &cliOptions{options: base, out: out}
			err := runAudit(context.Background(), o, []string{srv.URL("cf/")}, "prism", io.Discard)
			var ue *usageError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--out") {
				t.Errorf("--out %s: %v", out, err)
			}
		}
	})
}

// TestPlanObjects: a prefix becomes pieces of consecutive objects, in the
// order audit reads them, each numbered by its first object's place, the
// objects not read carried by the first; a prefix of nothing but skipped
// objects one piece that reads nothing; a listing that fails the URL
// itself, for the judge to report.
func TestPlanObjects(t *testing.T) {
	srv, days := sampleBucket(t)
	srv.Put(t, "old/E2SAMPLE.2025-01-01-00.0000aaaa.gz", []byte{})
	ctx := context.Background()
	opt := options{Values: auditflags.Values{Robots: sampleRobots, From: "2026-10-01", To: "2026-10-31"}}
	cfg, err := opt.config()
	if err != nil {
		t.Fatal(err)
	}
	plan := func(raw string, split int64) []logPiece {
		var pieces []logPiece
		if err := planObjects(ctx, logInput{Index: 3, Path: raw}, cfg.Ingest, split, func(p logPiece) { pieces = append(pieces, p) }); err != nil {
			t.Fatal(err)
		}
		return pieces
	}
	var objects []string // in the order of one object per piece
	for _, tc := range []struct {
		split    int64
		min, max int // pieces
	}{
		{1, days, days},               // every object holds a byte or more: one per piece
		{0, 1, 1},                     // one piece
		{100_000, days / 5, days / 2}, // objects of 20 to 40 kB: three to five a piece
	} {
		pieces := plan(srv.URL("cf/"), tc.split)
		if len(pieces) < tc.min || len(pieces) > tc.max {
			t.Fatalf("--split-bytes %d: %d pieces, want %d to %d", tc.split, len(pieces), tc.min, tc.max)
		}
		var got []string
		for i, p := range pieces {
			if p.Index != 3 || p.Part != i || p.File != len(got) || p.Ranged || p.ReadsNothing || p.Path != srv.URL("cf/") || len(p.Objects) == 0 {
				t.Errorf("--split-bytes %d: piece %d: %+v", tc.split, i, p)
			}
			if (i == 0) != (len(p.Skipped) == 1) {
				t.Errorf("--split-bytes %d: piece %d carries skipped %+v", tc.split, i, p.Skipped)
			}
			got = append(got, p.Objects...)
		}
		if pieces[0].Skipped[0].Name != "s3://logs/cf/README.txt" {
			t.Errorf("skipped %+v", pieces[0].Skipped)
		}
		if objects == nil {
			objects = got
			for _, o := range objects {
				if !strings.Contains(o, "endpoint=") || !strings.HasPrefix(objstore.Name(o), "s3://logs/cf/E2SAMPLE.2026-10-") {
					t.Errorf("object %s", o)
				}
			}
		}
		if !slices.Equal(got, objects) || len(got) != days {
			t.Errorf("--split-bytes %d: the pieces read %d objects, not the %d of the prefix in order", tc.split, len(got), days)
		}
	}
	if pieces := plan(srv.URL("old/"), 1); len(pieces) != 1 || !pieces[0].ReadsNothing || len(pieces[0].Skipped) != 1 {
		t.Errorf("a prefix of objects dated outside the period: %+v", pieces)
	}
	raw := srv.URL("none/")
	if pieces := plan(raw, 1); len(pieces) != 1 || pieces[0].Path != raw || pieces[0].ReadsNothing || pieces[0].Objects != nil {
		t.Errorf("an empty prefix: %+v", pieces)
	}
}

// TestObjectGroups: consecutive objects up to the size, an object of
// unknown size (an https:// one) alone, at most maxObjectsPerPiece.
func TestObjectGroups(t *testing.T) {
	sized := func(sizes ...int64) []ingest.ObjectInput {
		objs := make([]ingest.ObjectInput, len(sizes))
		for i, n := range sizes {
			objs[i].Size = n
		}
		return objs
	}
	many := make([]int64, 2*maxObjectsPerPiece+1)
	for _, tc := range []struct {
		name  string
		objs  []ingest.ObjectInput
		split int64
		want  [][2]int
	}{
		{"a group ends at the size", sized(40, 40, 40, 40, 100, 10), 100, [][2]int{{0, 3}, {3, 5}, {5, 6}}},
		{"no size: one group", sized(40, 40, 40), 0, [][2]int{{0, 3}}},
		{"unknown size alone", sized(10, -1, 10, 10), 100, [][2]int{{0, 1}, {1, 2}, {2, 4}}},
		{"unknown size first and last", sized(-1, 10, -1), 0, [][2]int{{0, 1}, {1, 2}, {2, 3}}},
		{"empty objects", sized(0, 0, 0), 1, [][2]int{{0, 3}}},
		{"at most maxObjectsPerPiece", sized(many...), 0, [][2]int{{0, maxObjectsPerPiece}, {maxObjectsPerPiece, 2 * maxObjectsPerPiece}, {2 * maxObjectsPerPiece, 2*maxObjectsPerPiece + 1}}},
		{"none", nil, 100, nil},
	} {
		if got := objectGroups(tc.objs, tc.split); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestDistinctLogs: a file named twice (once cleaned) is read once, as
// audit reads it; a URL given twice too (whatever its query), but two URLs that differ only as
// paths would once cleaned are two objects (S3 keys are strings: "a//b"
// is not "a/b").
func TestDistinctLogs(t *testing.T) {
	got := distinctLogs([]string{"logs/a.log", "logs//a.log", "./logs/a.log", "s3://b/cf//x.gz", "s3://b/cf/x.gz", "s3://b/cf/x.gz?region=eu-west-1", "s3://b/cf/./x.gz"})
	want := []string{"logs/a.log", "s3://b/cf//x.gz", "s3://b/cf/x.gz", "s3://b/cf/./x.gz"}
	if !slices.Equal(got, want) {
		t.Errorf("distinctLogs = %q, want %q", got, want)
	}
}
