package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// TestObjectInputs: the objects of a prefix, listed by ObjectInputs and
// each read alone, give the rows, the files and the skipped objects of the
// prefix read by Run, in the same order.
func TestObjectInputs(t *testing.T) {
	srv, _, _ := sampleObjects(t)
	// Not a log by its name: skipped as Run skips it.
	srv.Put(t, "cf/README.txt", []byte("CloudFront logs of October\n"))
	opts := Options{Formats: logfmt.Formats(),
		From: time.Date(2026, 10, 10, 0, 0, 0, 0, time.UTC), To: time.Date(2026, 10, 12, 23, 59, 59, 0, time.UTC)}
	prefix := srv.URL("cf/")
	wantRows, _, wantAcc, err := collect(t, []string{prefix}, opts)
	if err != nil {
		t.Fatal(err)
	}
	objs, skipped, err := ObjectInputs(context.Background(), prefix, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 5 || len(objs) != wantAcc.Files {
		t.Fatalf("%d objects listed, Run read %d", len(objs), wantAcc.Files)
	}
	if !slices.Equal(skipped, wantAcc.Skipped) {
		t.Errorf("skipped %+v\nwant %+v", skipped, wantAcc.Skipped)
	}
	if len(skipped) != 31-5+1 || !slices.ContainsFunc(skipped, func(s SkippedFile) bool { return strings.HasSuffix(s.Name, "README.txt") }) {
		t.Errorf("skipped %d objects: %+v", len(skipped), skipped)
	}
	var rows []row
	for i, o := range objs {
		r, _, acc, err := collect(t, []string{o.URL}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if acc.Files != 1 || acc.PerFile[0].Name != wantAcc.PerFile[i].Name || o.Name != acc.PerFile[0].Name ||
			o.Size <= 0 || len(acc.Skipped) != 0 {
			t.Errorf("%s (%d bytes) read as %+v, want %s alone", o.URL, o.Size, acc.PerFile, wantAcc.PerFile[i].Name)
		}
		rows = append(rows, r...)
	}
	if len(rows) == 0 || !slices.Equal(rows, wantRows) {
		t.Errorf("%d rows from the objects one by one, %d from the prefix", len(rows), len(wantRows))
	}
	// Several of them read together: the prefix's rows and names.
	urls := []string{objs[1].URL, objs[2].URL, objs[3].URL}
	r, _, acc, err := collect(t, urls, opts)
	if err != nil || acc.Files != 3 || acc.PerFile[2].Name != wantAcc.PerFile[3].Name || len(r) == 0 {
		t.Errorf("three objects together: %d files, %d rows, %v", acc.Files, len(r), err)
	}
	// A URL of nothing: the error Run counts.
	if _, _, err := ObjectInputs(context.Background(), srv.URL("none/"), opts); err == nil || !strings.Contains(err.Error(), "no object under this prefix") {
		t.Errorf("empty prefix: %v", err)
	}
}
