//go:build duckdb_arrow

package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/robots"
)

// The sample month of the README (testdata/sample/README.md).
const (
	parquetSampleRobots = "../testdata/sample/robots"
	parquetSampleLog    = "../testdata/sample/access-2026-10.log.gz"
)

// auditParquetSample audits the sample month as `crawlaudit audit` does by
// default (rfc9309, 24 h grace).
func auditParquetSample(t *testing.T) *Result {
	t.Helper()
	res, err := Run(context.Background(), Config{Robots: parquetSampleRobots, Profile: robots.RFC9309, Grace: 24 * time.Hour},
		[]string{parquetSampleLog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Close() })
	return res
}

// setParquetFileRows sets the rows per part file for one test.
func setParquetFileRows(t *testing.T, n int64) {
	old := parquetFileRows
	parquetFileRows = n
	t.Cleanup(func() { parquetFileRows = old })
}

// setParquetHostDayRows sets the rows a day that keep a host out of
// ParquetOtherHosts, for one test.
func setParquetHostDayRows(t *testing.T, n int64) {
	old := parquetHostDayRows
	parquetHostDayRows = n
	t.Cleanup(func() { parquetHostDayRows = old })
}

// setParquetSliceRows sets the rows per query for one test.
func setParquetSliceRows(t *testing.T, n int64) {
	old := parquetSliceRows
	parquetSliceRows = n
	t.Cleanup(func() { parquetSliceRows = old })
}

// pqReadBack opens an in-memory DuckDB to read datasets with.
func pqReadBack(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// pqRows runs query on s and returns its rows, each value formatted with %v
// (NULL as "<nil>").
func pqRows(t *testing.T, s *store.Store, query string) [][]string {
	t.Helper()
	var out [][]string
	err := s.Each(context.Background(), query, nil, func(vals []any) error {
		row := make([]string, len(vals))
		for i, v := range vals {
			if tm, ok := v.(time.Time); ok {
				v = tm.UTC().Format(time.RFC3339Nano)
			}
			row[i] = fmt.Sprint(v)
		}
		out = append(out, row)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// pqScan is read_parquet over every file of the dataset in dir, with the
// partition columns from the paths (host as text, day as a date).
func pqScan(dir string, hive bool) string {
	opts := "hive_partitioning = false"
	if hive {
		opts = "hive_partitioning = true, hive_types = {'host': VARCHAR, 'day': DATE}"
	}
	return fmt.Sprintf("read_parquet(%s, %s, filename = true, file_row_number = true)", store.Quote(filepath.Join(dir, "**", "*.parquet")), opts)
}

// TestParquetSampleCounts writes the sample month's dataset in small part
// files and small slices (about 650 rows a day, 400 a query: days are cut
// at hours, and their partitions written by two queries), reads it back
// with DuckDB's hive partitioning, as docs/scale.md tells users to, and
// gets the summary's bot rows exactly:
// every count of every bot, host and identity.
func TestParquetSampleCounts(t *testing.T) {
	setParquetFileRows(t, 1000)
	setParquetSliceRows(t, 400)
	res := auditParquetSample(t)
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "judged")
	st, err := res.WriteParquet(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != res.Summary.Input.BotRequests || st.Rows == 0 {
		t.Errorf("stats: %d rows, want the %d bot requests of the summary", st.Rows, res.Summary.Input.BotRequests)
	}
	db := pqReadBack(t)
	scan := pqScan(dir, true)

	// Per bot, host and identity, the counts of summary.json, computed
	// from the dataset alone.
	got := map[string]string{}
	for _, r := range pqRows(t, db, `SELECT bot, coalesce(host, ''), identity, count(*),
		count(*) FILTER (WHERE robots_fetch),
		count(*) FILTER (WHERE verdict = 'disallowed'),
		count(*) FILTER (WHERE verdict = 'disallowed_in_grace'),
		count(*) FILTER (WHERE crawl_delay_breach),
		count(*) FILTER (WHERE request_rate_breach),
		count(*) FILTER (WHERE visit_breach),
		count(*) FILTER (WHERE verdict = 'unaudited'),
		count(DISTINCT client_ip), min(ts), max(ts)
		FROM `+scan+` GROUP BY ALL`) {
		got[strings.Join(r[:3], "|")] = strings.Join(r[3:], " ")
	}
	if len(got) != len(res.Summary.Bots) {
		t.Errorf("the dataset has %d bot rows, the summary %d", len(got), len(res.Summary.Bots))
	}
	for _, b := range res.Summary.Bots {
		want := fmt.Sprintf("%d %d %d %d %d %d %d %d %d %s %s", b.Requests, b.RobotsFetches, b.Disallowed, b.DisallowedInGrace,
			b.CrawlDelayBreaches, b.RequestRateBreaches, b.VisitTimeBreaches, b.Unaudited, b.IPs,
			b.FirstSeen.UTC().Format(time.RFC3339Nano), b.LastSeen.UTC().Format(time.RFC3339Nano))
		key := b.Bot + "|" + b.Host + "|" + b.Identity
		if got[key] != want {
			t.Errorf("%s: dataset %q, summary %q", key, got[key], want)
		}
	}
	var sum report.BotRow
	for _, b := range res.Summary.Bots {
		sum.Disallowed += b.Disallowed
		sum.CrawlDelayBreaches += b.CrawlDelayBreaches
	}
	if sum.Disallowed == 0 || sum.CrawlDelayBreaches == 0 {
		t.Errorf("the sample has %d disallowed requests and %d Crawl-delay breaches: the comparison proves little", sum.Disallowed, sum.CrawlDelayBreaches)
	}

	// Every column of the view judged, in its order, in every file.
	var judgedCols []string
	for _, r := range pqRows(t, res.store, "SELECT column_name FROM (DESCRIBE SELECT * FROM judged)") {
		judgedCols = append(judgedCols, r[0])
	}
	var fileCols []string
	for _, r := range pqRows(t, db, "SELECT column_name FROM (DESCRIBE SELECT * FROM "+pqScan(dir, false)+")") {
		if r[0] != "filename" && r[0] != "file_row_number" {
			fileCols = append(fileCols, r[0])
		}
	}
	if !slices.Equal(fileCols, judgedCols) || !slices.Equal(st.Columns, judgedCols) {
		t.Errorf("file columns %v, stats %v; want the view's %v", fileCols, st.Columns, judgedCols)
	}

	pqCheckPartitions(t, db, dir, nil)

	// Files: zstd, at most parquetFileRows rows, as many as the stats say;
	// rows in order of ts within each partition.
	files := pqRows(t, db, fmt.Sprintf("SELECT count(DISTINCT file_name), count(*) FILTER (WHERE compression <> 'ZSTD') FROM parquet_metadata(%s)",
		store.Quote(filepath.Join(dir, "**", "*.parquet"))))
	if files[0][0] != fmt.Sprint(st.Files) || files[0][1] != "0" {
		t.Errorf("parquet_metadata: %s files, %s column chunks not zstd; stats say %d files", files[0][0], files[0][1], st.Files)
	}
	parts := pqRows(t, db, "SELECT count(DISTINCT (host, day)) FROM "+scan)
	if parts[0][0] != fmt.Sprint(st.Partitions) || st.Partitions < 31 {
		t.Errorf("%s partitions read back, %d written; the sample has 31 days", parts[0][0], st.Partitions)
	}
	big := pqRows(t, db, "SELECT count(*) FROM (SELECT filename FROM "+scan+" GROUP BY filename HAVING count(*) > 1000)")
	if big[0][0] != "0" || st.Files < int(st.Rows/1000) {
		t.Errorf("%s files hold more than 1000 rows; %d files for %d rows", big[0][0], st.Files, st.Rows)
	}
	unordered := pqRows(t, db, `SELECT count(*) FROM (SELECT ts < lag(ts) OVER (PARTITION BY host, day ORDER BY
		regexp_extract(filename, 'part-(\d+)', 1)::INTEGER, file_row_number) AS back FROM `+scan+`) WHERE back`)
	if unordered[0][0] != "0" {
		t.Errorf("%s rows come before an earlier one of their partition", unordered[0][0])
	}
	var marker struct {
		Dataset string `json:"dataset"`
		Rows    int64  `json:"rows"`
	}
	b, err := os.ReadFile(filepath.Join(dir, ParquetMarker))
	if err != nil || json.Unmarshal(b, &marker) != nil || marker.Dataset != parquetMarkerKind || marker.Rows != st.Rows {
		t.Errorf("%s: %s (%v)", ParquetMarker, b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "_SUCCESS")); err != nil {
		t.Error(err)
	}
}

// pqCheckPartitions checks that the partition values of every row, read
// from its path, are its host (NULL for "") and the UTC day of its ts, as
// the files' own columns hold them; hosts in cut are the ones whose path
// holds a cut value.
func pqCheckPartitions(t *testing.T, db *store.Store, dir string, cut map[string]bool) {
	t.Helper()
	rows := pqRows(t, db, `SELECT p.host, p.day, f.host, f.ts, f.filename FROM `+pqScan(dir, true)+` p
		JOIN `+pqScan(dir, false)+` f USING (filename, file_row_number)`)
	if len(rows) == 0 {
		t.Fatal("no rows read back")
	}
	for _, r := range rows {
		pathHost, pathDay, host, ts, file := r[0], r[1], r[2], r[3], r[4]
		tm, err := time.Parse(time.RFC3339Nano, ts)
		if err != nil {
			t.Fatal(err)
		}
		if wantDay := tm.UTC().Format("2006-01-02"); pathDay != wantDay+"T00:00:00Z" || filepath.Base(filepath.Dir(file)) != "day="+wantDay {
			t.Errorf("%s: day %s from the path, ts %s", file, pathDay, ts)
		}
		switch {
		case host == "" && pathHost == "<nil>":
		case cut[host]:
			if !strings.HasPrefix(filepath.Base(filepath.Dir(filepath.Dir(file))), "host=") || len(filepath.Base(filepath.Dir(filepath.Dir(file)))) > 255 {
				t.Errorf("%s: a host of %d bytes in a directory name too long", file, len(host))
			}
		case pathHost != host:
			t.Errorf("%s: host %q from the path, %q in the file", file, pathHost, host)
		}
		rel, err := filepath.Rel(dir, file)
		if err != nil || strings.HasPrefix(rel, "..") || strings.Count(rel, string(filepath.Separator)) != 2 {
			t.Errorf("%s is not DIR/host=…/day=…/part-N.parquet", file)
		}
	}
}

// pqHostileLog is a JSON-lines log (nginx's keys) of one bot on hosts
// chosen to break a path: traversal, separators, "=", "%", control
// characters, non-ASCII, Hive's own default partition name, upper case,
// the empty host, and one far longer than a file name. want are the hosts
// the audit judges them as (robots/history.NormalizeHost: lower case, no
// port, no trailing dot).
func pqHostileLog(t *testing.T) (log string, want []string, long string) {
	long = strings.Repeat("x/", 300) + "end"
	hosts := []string{"../x", "a/b", "=", "%41", "a\nb", "tab\there", "nul\x00x", "caf\u00e9.example", "..",
		"__HIVE_DEFAULT_PARTITION__", "UPPER.example", "q?x#y*z", `back\slash`, "~tilde", "", long, "www.example.com"}
	var b strings.Builder
	for i, h := range hosts {
		line, err := json.Marshal(map[string]any{
			"time_iso8601": fmt.Sprintf("2026-10-%02dT23:59:%02d+00:00", 1+i%3, i), "host": h, "remote_addr": "198.51.100.7",
			"request": fmt.Sprintf("GET /private/%d HTTP/1.1", i), "status": 200, "body_bytes_sent": 10, "http_user_agent": "curl/8.0",
		})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	log = filepath.Join(t.TempDir(), "hostile.jsonl")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	want = []string{"../x", "a/b", "=", "%41", "a\nb", "tab\there", "nul\x00x", "caf\u00e9.example", "",
		"__hive_default_partition__", "upper.example", "q?x#y*z", `back\slash`, "~tilde", "", long, "www.example.com"}
	return log, want, long
}

// TestParquetHostileHosts audits requests on hosts that attack a path and
// checks that each lands in one partition directory below the dataset,
// named so that DuckDB's hive partitioning reads the host back (NULL for
// the empty one); the host too long for a file name is cut in its
// directory's name and whole in the rows. (Each host has one request:
// ParquetOtherHosts is turned off here, see TestParquetOtherHosts.)
func TestParquetHostileHosts(t *testing.T) {
	setParquetHostDayRows(t, 0)
	log, want, long := pqHostileLog(t)
	robotsFile := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(robotsFile, []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsFile, Profile: robots.RFC9309}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	top := t.TempDir()
	dir := filepath.Join(top, "ds")
	st, err := res.WriteParquet(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Rows != int64(len(want)) {
		t.Fatalf("%d rows written, want %d", st.Rows, len(want))
	}
	db := pqReadBack(t)
	var hosts []string
	for _, r := range pqRows(t, db, "SELECT host FROM "+pqScan(dir, false)) {
		hosts = append(hosts, r[0])
	}
	sort.Strings(hosts)
	sortedWant := slices.Clone(want)
	sort.Strings(sortedWant)
	if !slices.Equal(hosts, sortedWant) {
		t.Errorf("hosts in the files:\n%q\nwant\n%q", hosts, sortedWant)
	}
	pqCheckPartitions(t, db, dir, map[string]bool{long: true})
	// Nothing outside the dataset; every name inside one directory level
	// per partition key.
	entries, err := os.ReadDir(top)
	if err != nil || len(entries) != 1 || entries[0].Name() != "ds" {
		t.Errorf("beside the dataset: %v (%v)", entries, err)
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if len(d.Name()) > 255 {
			t.Errorf("a name of %d bytes: %.40s…", len(d.Name()), d.Name())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The empty hosts (no host, and ".." normalised to "") share Hive's
	// default partition, each day its own file.
	if _, err := os.Stat(filepath.Join(dir, "host="+hiveDefaultPartition)); err != nil {
		t.Error(err)
	}
}

// TestHivePartitionValue: the escaping of Hive's FileUtils.escapePathName
// and Spark's ExternalCatalogUtils.escapePathName
// (https://github.com/apache/spark/blob/master/sql/catalyst/src/main/scala/org/apache/spark/sql/catalyst/catalog/ExternalCatalogUtils.scala:
// charToEscape, with the Windows characters), and this package's additions
// (doc of hivePartitionValue).
func TestHivePartitionValue(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"www.example.com", "www.example.com"},               // nothing to escape
		{"", hiveDefaultPartition},                           // Hive: DEFAULTPARTITIONNAME for null and ""
		{"a/b", "a%2Fb"},                                     // Spark charToEscape '/'
		{"../x", "..%2Fx"},                                   // no traversal: one path element
		{"=", "%3D"},                                         // '='
		{"%41", "%2541"},                                     // '%', so decoding is exact
		{"a\nb\x00\x1f\x7f", "a%0Ab%00%1F%7F"},               // control characters
		{`"#'*:?\{[]^`, "%22%23%27%2A%3A%3F%5C%7B%5B%5D%5E"}, // the rest of charToEscape
		{" <>|", "%20%3C%3E%7C"},                             // charToEscape on Windows
		{"example.com:8080", "example.com%3A8080"},           // ':'
		{"caf\u00e9", "caf%C3%A9"},                           // non-ASCII bytes (file systems normalise Unicode)
		{"Ab", "%41b"},                                       // upper case (file systems that ignore case)
		{"~", "%7E"},                                         // the cut-value marker
		{"a-b_c.d+e,f;g@h!i$j&k(l)m", "a-b_c.d+e,f;g@h!i$j&k(l)m"},
	} {
		if got := hivePartitionValue(c.in); got != c.want {
			t.Errorf("hivePartitionValue(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Long values: cut to a file name, never inside %XX, distinct.
	seen := map[string]string{}
	for _, s := range []string{strings.Repeat("a", 250), strings.Repeat("a", 251), strings.Repeat("a", 300),
		strings.Repeat("a", 300) + "b", strings.Repeat("/", 100), strings.Repeat("/", 101), strings.Repeat("a/", 200)} {
		v := hivePartitionValue(s)
		if len("host="+v) > 255 {
			t.Errorf("%d-byte value: %d-byte name", len(s), len("host="+v))
		}
		if i := strings.LastIndexByte(v, '%'); i >= 0 && i > len(v)-3 {
			t.Errorf("%q ends inside an escape", v)
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%q and %q share %q", other, s, v)
		}
		seen[v] = s
	}
	if v := hivePartitionValue(strings.Repeat("a", 250)); v != strings.Repeat("a", 250) {
		t.Errorf("a 250-byte value that fits was cut: %q", v)
	}
}

// pqFingerprint lists the files below dir with their sizes and the marker's
// content.
func pqFingerprint(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if fi, err := d.Info(); err == nil && !d.IsDir() {
			fmt.Fprintf(&b, "%s %d\n", p, fi.Size())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := os.ReadFile(filepath.Join(dir, ParquetMarker))
	return b.String() + string(m)
}

// pqEntries returns the names in dir.
func pqEntries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestParquetAtomic: --parquet's output appears whole or not at all, as
// --out's does. A write cancelled midway (as by Ctrl-C)
// or staged and aborted leaves the previous dataset as it was and no
// temporary directory; a complete one replaces the previous dataset whole
// (no part file of it stays); what a killed run left is removed.
func TestParquetAtomic(t *testing.T) {
	setParquetFileRows(t, 500)
	res := auditParquetSample(t)
	ctx := context.Background()
	top := t.TempDir()
	dir := filepath.Join(top, "ds")
	first, err := res.WriteParquet(ctx, dir) // 500 rows a file
	if err != nil {
		t.Fatal(err)
	}
	before := pqFingerprint(t, dir)

	// Cancelled once its first part file is there (hundreds follow, each
	// synced: the write is midway).
	setParquetFileRows(t, 50)
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	seen := make(chan []string, 1)
	go func() {
		defer close(seen)
		for cctx.Err() == nil {
			if m, _ := filepath.Glob(filepath.Join(top, ".ds.tmp-*", "host=*", "day=*", "part-*.parquet")); len(m) > 0 {
				cancel()
				seen <- m
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	_, err = res.StageParquet(cctx, dir)
	cancel()
	if m := <-seen; !errors.Is(err, context.Canceled) || len(m) == 0 {
		t.Fatalf("a write cancelled after its first file (%q) returned %v, want context.Canceled", m, err)
	}
	if got := pqFingerprint(t, dir); got != before {
		t.Errorf("the cancelled write changed the dataset")
	}
	if got := pqEntries(t, top); !slices.Equal(got, []string{"ds"}) {
		t.Errorf("after the cancelled write, beside the dataset: %q", got)
	}

	setParquetFileRows(t, 500)
	p, err := res.StageParquet(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := pqEntries(t, top); len(got) != 2 {
		t.Errorf("a staged dataset is not beside the directory: %q", got)
	}
	if err := p.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := pqFingerprint(t, dir); got != before {
		t.Errorf("the aborted write changed the dataset")
	}
	if got := pqEntries(t, top); !slices.Equal(got, []string{"ds"}) {
		t.Errorf("after Abort, beside the dataset: %q", got)
	}
	if err := p.Commit(); err == nil {
		t.Error("Commit after Abort succeeded")
	}

	// A killed run's temporary dataset (a PID that no longer exists).
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(top, fmt.Sprintf(".ds.tmp-%d-0badf00d", cmd.Process.Pid))
	if err := os.MkdirAll(filepath.Join(stale, "host=x", "day=2026-10-01"), 0o755); err != nil {
		t.Fatal(err)
	}

	setParquetFileRows(t, 1<<20)
	second, err := res.WriteParquet(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := pqEntries(t, top); !slices.Equal(got, []string{"ds"}) {
		t.Errorf("after a complete write, beside the dataset: %q", got)
	}
	if second.Rows != first.Rows || second.Files >= first.Files {
		t.Errorf("second write: %+v, first %+v", second, first)
	}
	var parts []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".parquet") {
			parts = append(parts, p)
		}
		return err
	})
	if len(parts) != second.Files {
		t.Errorf("%d part files on disk, %d written: the previous dataset was merged, not replaced", len(parts), second.Files)
	}
}

// TestParquetRefusesForeignDir: like --db with a file that is not a
// database, --parquet never replaces a directory crawlaudit did not write
// (no ParquetMarker, or one that is not its own), nor a file; an empty
// directory is taken.
func TestParquetRefusesForeignDir(t *testing.T) {
	res := auditParquetSample(t)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		setup func(dir string) error
		ok    bool
	}{
		{"a directory of someone's files", func(dir string) error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("years of work"), 0o644)
		}, false},
		{"a marker that is not crawlaudit's", func(dir string) error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(dir, ParquetMarker), []byte(`{"dataset":"something else"}`), 0o644)
		}, false},
		{"a regular file", func(dir string) error { return os.WriteFile(dir, []byte("data"), 0o644) }, false},
		{"a symbolic link to a dataset", func(dir string) error {
			target := dir + "-target"
			if err := os.Mkdir(target, 0o755); err != nil {
				return err
			}
			marker := `{"dataset": "` + parquetMarkerKind + `"}`
			if err := os.WriteFile(filepath.Join(target, ParquetMarker), []byte(marker), 0o644); err != nil {
				return err
			}
			return os.Symlink(target, dir)
		}, false},
		{"a marker that is a FIFO", func(dir string) error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			return syscall.Mkfifo(filepath.Join(dir, ParquetMarker), 0o644)
		}, false},
		{"a dataset of an earlier run", func(dir string) error {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			marker := `{"dataset": "` + parquetMarkerKind + `"}`
			return os.WriteFile(filepath.Join(dir, ParquetMarker), []byte(marker), 0o644)
		}, true},
		{"an empty directory", func(dir string) error { return os.Mkdir(dir, 0o755) }, true},
		{"no directory, in a new parent", func(dir string) error { return nil }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			top := t.TempDir()
			dir := filepath.Join(top, "sub", "ds")
			if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.name == "no directory, in a new parent" {
				dir = filepath.Join(top, "new", "parent", "ds")
			}
			if err := c.setup(dir); err != nil {
				t.Fatal(err)
			}
			before := pqFingerprint(t, top)
			checkErr := CheckParquetDir(dir)
			_, err := res.WriteParquet(ctx, dir)
			if c.ok {
				if err != nil || checkErr != nil {
					t.Fatalf("refused: %v / %v", err, checkErr)
				}
				if _, err := os.Stat(filepath.Join(dir, ParquetMarker)); err != nil {
					t.Error(err)
				}
				return
			}
			if err == nil || checkErr == nil || !strings.Contains(err.Error(), "refusing to replace") {
				t.Fatalf("not refused: %v / %v", err, checkErr)
			}
			if got := pqFingerprint(t, top); got != before {
				t.Errorf("the refused write changed %s:\n%s\nwas\n%s", top, got, before)
			}
		})
	}
}

// TestParquetOtherHosts: hosts with fewer than 100 requests a day share
// the partition host=~other, one file a day, their rows whole; a host the
// robots.txt history names keeps its own partition however few its
// requests; the sample's host (645 requests a day) keeps its own.
func TestParquetOtherHosts(t *testing.T) {
	log, want, _ := pqHostileLog(t)
	robotsDir := filepath.Join(t.TempDir(), "robots")
	if err := os.MkdirAll(filepath.Join(robotsDir, "www.example.com"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(robotsDir, "www.example.com", "2026-01-01T00:00:00Z.txt"), []byte("User-agent: *\nDisallow: /private/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Config{Robots: robotsDir, Profile: robots.RFC9309}, []string{log})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	dir := filepath.Join(t.TempDir(), "ds")
	st, err := res.WriteParquet(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Lines without a host are judged as the history's only host.
	db := pqReadBack(t)
	rows := pqRows(t, db, "SELECT p.host, f.host, p.day, p.filename FROM "+pqScan(dir, true)+
		" p JOIN "+pqScan(dir, false)+" f USING (filename, file_row_number)")
	others, otherDays, otherFiles := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		pathHost, host, day, file := r[0], r[1], r[2], r[3]
		switch {
		case host == "www.example.com" && pathHost == host:
		case host != "www.example.com" && pathHost == ParquetOtherHosts:
			others[host], otherDays[day], otherFiles[file] = true, true, true
		default:
			t.Errorf("%s: a row of %q in the partition of %q", file, host, pathHost)
		}
	}
	if len(rows) != len(want) || st.Rows != int64(len(want)) || st.OtherHosts != int64(len(others)) || len(others) < 10 {
		t.Errorf("stats %+v, %d rows read back: want %d rows, %d other hosts", st, len(rows), len(want), len(others))
	}
	if len(otherFiles) != len(otherDays) || len(otherDays) != 3 {
		t.Errorf("the other hosts' rows are in %d files over %d days; want one file a day, 3 days", len(otherFiles), len(otherDays))
	}

	sample := auditParquetSample(t)
	st, err = sample.WriteParquet(context.Background(), filepath.Join(t.TempDir(), "sample"))
	if err != nil || st.OtherHosts != 0 {
		t.Errorf("sample: %d other hosts (%v), want 0", st.OtherHosts, err)
	}
}
