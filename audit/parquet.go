//go:build duckdb_arrow

package audit

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/internal/atomicfile"
)

// ParquetMarker is the file a dataset written by WriteParquet holds at its
// top: a small JSON document saying what the dataset is. A directory
// without it is not replaced. Readers skip it (its name starts with "_" and
// does not end in ".parquet"), as they skip _SUCCESS, written beside it as
// Spark and Hadoop do.
const ParquetMarker = "_crawlaudit"

// parquetMarkerKind is the "dataset" of ParquetMarker's document.
const parquetMarkerKind = "crawlaudit judged bot requests"

// Bounds of the files of a Parquet dataset. Variables so that tests can
// make small ones.
var (
	// parquetFileRows is the most rows one part file holds: a partition
	// with more is written as part-0, part-1, ...
	parquetFileRows int64 = 1 << 20
	// parquetRowGroupRows and parquetRowGroupBytes bound a row group (the
	// writer holds the current one in memory, encoded and compressed):
	// DuckDB's own row group size, or 64 MB of encoded data.
	parquetRowGroupRows   = 122_880
	parquetRowGroupBytes  = int64(64 << 20)
	parquetMaxSegmentSize = 255 // NAME_MAX of Linux, macOS and Windows file systems
)

// ParquetStats says what a Parquet dataset holds.
type ParquetStats struct {
	Rows       int64 `json:"rows"`
	Files      int   `json:"files"`
	Partitions int   `json:"partitions"`
	// Bytes is the size of the part files.
	Bytes int64 `json:"bytes"`
	// Columns are the columns of each file: those of the view judged.
	Columns []string `json:"columns"`
	// OtherHosts is the number of hosts whose rows are in the partition
	// host=~other (ParquetOtherHosts).
	OtherHosts int64 `json:"other_hosts"`
}

// StagedParquet is a Parquet dataset written complete under a temporary
// name beside its directory, not yet in place: Commit puts it there,
// Abort removes it.
type StagedParquet struct {
	// Stats describe the dataset.
	Stats    ParquetStats
	dir, tmp string
}

// WriteParquet writes the judged bot requests (every column of the view
// judged) as a hive-partitioned Parquet dataset in dir and puts it in place
// at once: StageParquet then Commit.
func (r *Result) WriteParquet(ctx context.Context, dir string) (ParquetStats, error) {
	p, err := r.StageParquet(ctx, dir)
	if err != nil {
		return ParquetStats{}, err
	}
	if err := p.Commit(); err != nil {
		return ParquetStats{}, err
	}
	return p.Stats, nil
}

// StageParquet writes the rows of the view judged, with every column the
// view has, as a hive-partitioned Parquet dataset that DuckDB, Spark and
// pandas read (docs/scale.md):
// DIR/host=HOST/day=YYYY-MM-DD/part-N.parquet, zstd-compressed, the day
// being the UTC day of ts, rows in order of host and ts, at most
// 1,048,576 rows per file. HOST is escaped as Hive and Spark escape a
// partition value (escapePathName: control characters, "/", "=", "%", ":"
// and others as %XX, which DuckDB, Spark and pyarrow decode), and further
// every byte outside ASCII, upper-case letters (for file systems that
// ignore case) and "~"; an empty host is __HIVE_DEFAULT_PARTITION__, read
// back as NULL. A host whose escaped form does not fit in a file name
// (250 bytes) is cut and followed by "~" and 16 hexadecimal digits of its
// SHA-256: its rows still hold the whole host in their host column (read
// with hive_partitioning=false). The rows of hosts with fewer than 100 rows
// a day on average that the robots.txt history does not name share the
// partition host=~other (ParquetOtherHosts), with their host in the column:
// many hosts of a few requests (hostile Host headers) make a few files, not
// one each. ParquetMarker and _SUCCESS are written at the top.
//
// The dataset is written under a temporary name beside dir (that of
// package atomicfile, so that the leftovers of a killed run are removed by
// the next one) and is not in place until Commit. An existing dir is only
// replaced if it holds ParquetMarker or is empty; any other is refused
// here, before anything is written. Memory is bounded: DuckDB's copy of
// the rows spills under its memory limit, a query returns at most about
// parquetSliceRows rows where the times allow (see writeParquetDataset),
// and one file is open at a time, its row group at most 122,880 rows.
func (r *Result) StageParquet(ctx context.Context, dir string) (_ *StagedParquet, err error) {
	if dir == "" {
		return nil, errors.New("no directory given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", dir, err)
	}
	parent, base := filepath.Split(abs)
	if base == "" {
		return nil, fmt.Errorf("cannot write %s: not a directory that can be replaced", dir)
	}
	if err := checkParquetDir(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", parent, err)
	}
	if err := r.materialize(ctx); err != nil {
		return nil, err
	}
	atomicfile.SweepStaleOf(parent, base) // what killed runs left
	p := &StagedParquet{dir: dir, tmp: atomicfile.TempPath(abs)}
	defer func() {
		if err != nil {
			p.Abort()
		}
	}()
	if err := os.Mkdir(p.tmp, 0o755); err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if err := r.writeParquetDataset(ctx, p.tmp, &p.Stats); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("cannot write %s: %w", dir, err)
	}
	return p, nil
}

// Commit puts the dataset in place: it takes the place of the directory
// (an existing one is swapped with it in one step where the system can,
// renameat2's RENAME_EXCHANGE on Linux; elsewhere moved aside first) and
// the previous dataset is removed. The directory is checked again for
// ParquetMarker first.
func (p *StagedParquet) Commit() error {
	if p.tmp == "" {
		return errors.New("the Parquet dataset was already committed or aborted")
	}
	tmp := p.tmp
	if err := checkParquetDir(p.dir); err != nil {
		p.Abort()
		return err
	}
	p.tmp = ""
	return atomicfile.ReplaceDir(tmp, p.dir)
}

// Abort removes the dataset written; the directory stays as it was. It is
// a no-op after Commit.
func (p *StagedParquet) Abort() error {
	if p.tmp == "" {
		return nil
	}
	err := atomicfile.Remove(p.tmp)
	p.tmp = ""
	return err
}

// CheckParquetDir returns an error when StageParquet would refuse dir: it
// exists and is not a directory, or is a directory that is neither empty
// nor a dataset WriteParquet wrote (with ParquetMarker). A command checks
// it before a long audit.
func CheckParquetDir(dir string) error { return checkParquetDir(dir) }

// checkParquetDir returns nil when dir does not exist, is empty, or holds
// ParquetMarker with the document WriteParquet writes. A symbolic link is
// refused: the dataset would replace the link, not what it points to.
func checkParquetDir(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("refusing to replace %s: a symbolic link (give the directory it points to)", dir)
	}
	if !fi.IsDir() {
		return fmt.Errorf("refusing to replace %s: not a directory (%s)", dir, fi.Mode().Type())
	}
	b, err := readHead(filepath.Join(dir, ParquetMarker), 64<<10)
	if err == nil {
		var m struct{ Dataset string }
		if json.Unmarshal(b, &m) == nil && m.Dataset == parquetMarkerKind {
			return nil
		}
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	if len(es) == 0 {
		return nil
	}
	return fmt.Errorf("refusing to replace %s: it is not a Parquet dataset crawlaudit wrote (no %s file in it); remove it or choose another directory", dir, ParquetMarker)
}

// readHead reads at most n bytes of the regular file at path (never
// opening anything else: a FIFO would block).
func readHead(path string, n int64) ([]byte, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// parquetSliceRows bounds the rows one query reads, where it can (see
// parquetSlices).
var parquetSliceRows int64 = 1 << 17

// parquetSliceBytes bounds the bytes of the longest strings a slice holds
// (see parquetSlices).
var parquetSliceBytes int64 = 16 << 20

// ParquetOtherHosts is the partition value (host=~other) of the rows of
// hosts with fewer than parquetHostDayRows rows a day on average, so that
// a log with many hosts of a few requests each (hostile Host headers) does
// not make a file for each: a file costs as much to write as thousands of
// rows. Their rows keep their host in the column host (read it with
// hive_partitioning=false). No escaped host holds a bare "~".
const ParquetOtherHosts = "~other"

// parquetHostDayRows is the fewest rows per day, on average over its days,
// that give a host partitions of its own.
var parquetHostDayRows int64 = 100

// otherColumn is the column the slice queries add to tell the rows of
// ParquetOtherHosts; it is not written.
const otherColumn = "crawlaudit_other_host"

// parquetRowsSQL is the rows of the view judged (queries/judged.sql) on
// ids, and parquetNames the id columns store.Store.Named names; parquetJudgedSQL
// selects from the named table the columns of judged, in its order and
// with its types, so that the dataset is the view's rows.
const parquetRowsSQL = `SELECT r.ts, r.host_id, r.client_ip_id, r.client_ip, r.method_id, r.target_id, r.target,
    r.status, r.bytes, r.user_agent_id, r.user_agent, r.bot_id, r.file_id, r.line,
    r.robots_version_id, r.robots_group_id, r.verdict_id, r.rule_id, r.rule_line,
    r.crawl_delay, r.rate_requests, r.rate_seconds, r.visit_window_id, r.visit_breach, r.robots_fetch,
    m.gap_us, m.rate_count, m.crawl_delay_breach, m.request_rate_breach, m.crawl_delay_unsupported,
    r.identity, cl.evidence AS identity_evidence, cl.signature_status, cl.signer, r.pref_exposed
FROM requests r
JOIN measures m ON r.rid = m.rid
LEFT JOIN claims cl ON cl.id = r.claim_id`

var parquetNames = []store.IDName{
	{ID: "host_id", As: "host_name"}, {ID: "method_id", As: "method"}, {ID: "file_id", As: "file"},
	{ID: "robots_version_id", As: "robots_version"}, {ID: "robots_group_id", As: "robots_group"},
	{ID: "verdict_id", As: "verdict"}, {ID: "rule_id", As: "rule"}, {ID: "visit_window_id", As: "visit_window"},
	{ID: "client_ip_id", As: "client_ip_name", Many: true}, {ID: "target_id", As: "target_name", Many: true},
	{ID: "user_agent_id", As: "user_agent_name", Many: true}, {ID: "bot_id", As: "bot", Many: true},
}

const parquetJudgedSQL = `SELECT ts, coalesce(host_name, '') AS host, coalesce(client_ip_name, client_ip) AS client_ip,
    method, coalesce(target_name, target) AS target, status, bytes,
    coalesce(user_agent_name, user_agent) AS user_agent, bot, file, line,
    robots_version, robots_group, verdict, rule, rule_line, crawl_delay, rate_requests, rate_seconds,
    visit_window, visit_breach, robots_fetch, gap_us, rate_count, crawl_delay_breach, request_rate_breach,
    crawl_delay_unsupported, identity, identity_evidence, signature_status, signer, pref_exposed`

// writeParquetDataset writes the dataset into the empty directory root.
//
// The driver materialises the whole result of a query before its first
// batch, and DuckDB cannot spill such a result, so the rows are not read by
// one query: the rows of the view judged are stored in a temporary table
// (a table spills to disk under DuckDB's memory limit), named one dict
// join at a time (store.Store.Named: the view's twelve joins at once held twelve
// hash tables and failed under the limit from about 0.8 M bot requests),
// and read in slices of ts (parquetSlices), each sorted by host and ts,
// then dropped. The view and the table are made by SQL, not registered
// from Arrow: reading them through the Arrow interface is reliable (see
// Store).
func (r *Result) writeParquetDataset(ctx context.Context, root string, st *ParquetStats) error {
	table := r.store.TempName("crawlaudit_parquet")
	named := table + "_named"
	defer r.store.Exec(context.WithoutCancel(ctx), "DROP VIEW IF EXISTS "+table+"; DROP TABLE IF EXISTS "+named)
	if err := r.store.Named(ctx, named, parquetRowsSQL, parquetNames); err != nil {
		return err
	}
	if err := r.store.Exec(ctx, "CREATE TEMP VIEW "+table+" AS "+parquetJudgedSQL+" FROM "+named); err != nil {
		return err
	}
	wheres, err := r.parquetSlices(ctx, table)
	if err != nil {
		return err
	}
	schema, err := r.parquetSchema(ctx, table)
	if err != nil {
		return err
	}
	w, err := newPartitionWriter(root, schema, st)
	if err != nil {
		return err
	}
	defer w.abort()
	hosts := table + "_hosts"
	defer r.store.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+hosts)
	// The hosts with partitions of their own: those with enough rows a
	// day, and those the robots.txt history names.
	namedHosts := "SELECT NULL::VARCHAR WHERE false"
	if r.hist != nil && !r.hist.AnyHost() {
		var names []string
		for _, h := range r.hist.Hosts() {
			names = append(names, store.Quote(h))
		}
		namedHosts = "SELECT unnest([" + strings.Join(names, ", ") + "]::VARCHAR[])"
	}
	if err := r.store.Exec(ctx, fmt.Sprintf(`CREATE TEMP TABLE %s AS SELECT host FROM %s GROUP BY host
		HAVING count(*) >= %d * count(DISTINCT epoch_us(ts) // %d) UNION %s`, hosts, table, parquetHostDayRows, int64(24*time.Hour/time.Microsecond), namedHosts)); err != nil {
		return err
	}
	from, order := table+" t", "t.host, t.ts, t.file, t.line"
	var folded int64
	if err := r.store.QueryRow(ctx, fmt.Sprintf(`SELECT count(DISTINCT t.host) FROM %s t
		LEFT JOIN %s k ON k.host = t.host WHERE k.host IS NULL`, table, hosts)).Scan(&folded); err != nil {
		return fmt.Errorf("DuckDB: %w", err)
	}
	columns := "t.*, false AS " + otherColumn
	if folded > 0 {
		from += " LEFT JOIN " + hosts + " k ON k.host IS NOT DISTINCT FROM t.host"
		columns = "t.*, k.host IS NULL AND t.host IS NOT NULL AS " + otherColumn
		order = otherColumn + ", CASE WHEN " + otherColumn + " THEN NULL ELSE t.host END, t.ts, t.file, t.line"
		st.OtherHosts = folded
	}
	w.other = len(schema.Fields())
	withOther := arrow.NewSchema(append(schema.Fields(), arrow.Field{Name: otherColumn, Type: arrow.FixedWidthTypes.Boolean, Nullable: true}), nil)
	for _, where := range wheres {
		q := "SELECT " + columns + " FROM " + from + " WHERE " + where + " ORDER BY " + order
		if err := r.readParquetSlice(ctx, q, withOther, w.writeRecord); err != nil {
			return err
		}
	}
	if err := w.close(); err != nil {
		return err
	}
	marker, err := json.MarshalIndent(struct {
		Dataset      string   `json:"dataset"`
		Partitioning []string `json:"partitioning"`
		ParquetStats
	}{parquetMarkerKind, []string{"host", "day"}, *st}, "", "  ")
	if err != nil {
		return err
	}
	for name, body := range map[string][]byte{ParquetMarker: append(marker, '\n'), "_SUCCESS": nil} {
		if err := writeSynced(filepath.Join(root, name), body); err != nil {
			return err
		}
	}
	return syncDir(root)
}

// parquetSlices returns the conditions on ts that cut the rows of table
// into slices of at most parquetSliceRows rows where it can: whole UTC days
// (so that a partition is one slice), a day with more rows cut at hours, an
// hour with more rows one slice; then the rows without a ts. The conditions
// are ranges of ts that tile the time line, so that every row is in one
// slice whatever the counts; they filter ts itself, so that DuckDB skips
// the row groups out of range.
func (r *Result) parquetSlices(ctx context.Context, table string) ([]string, error) {
	// The driver holds a slice's result whole: with long strings stored
	// (60 KB URLs), a slice holds parquetSliceBytes of them at most, cut
	// at minutes rather than hours.
	sliceRows, unit := parquetSliceRows, time.Hour
	if l := r.store.Longest(); l > 0 && sliceRows*l > parquetSliceBytes {
		sliceRows, unit = max(256, parquetSliceBytes/l), time.Minute
	}
	// "hour" below is a unit: an hour, or a minute for long strings.
	hourUS := int64(unit / time.Microsecond)
	perDay := int64(24 * time.Hour / unit)
	type bucket struct{ hour, rows int64 }
	var hours []bucket
	var nulls int64
	err := r.store.Each(ctx, fmt.Sprintf("SELECT epoch_us(ts) // %d AS h, count(*) FROM %s GROUP BY h ORDER BY h NULLS LAST", hourUS, table), nil,
		func(v []any) error {
			n, ok := v[1].(int64)
			if !ok {
				return fmt.Errorf("count is %T", v[1])
			}
			if v[0] == nil {
				nulls = n
				return nil
			}
			h, ok := v[0].(int64)
			if !ok {
				return fmt.Errorf("hour is %T", v[0])
			}
			hours = append(hours, bucket{h, n})
			return nil
		})
	if err != nil {
		return nil, err
	}
	day := func(h int64) int64 {
		if h < 0 {
			return (h - perDay + 1) / perDay
		}
		return h / perDay
	}
	// cuts are the hours where a slice starts, after the first.
	var cuts []int64
	var cur int64
	for i := 0; i < len(hours); {
		d := day(hours[i].hour)
		j, rows := i, int64(0)
		for ; j < len(hours) && day(hours[j].hour) == d; j++ {
			rows += hours[j].rows
		}
		if cur > 0 && cur+rows > sliceRows {
			cuts = append(cuts, d*perDay)
			cur = 0
		}
		if rows <= sliceRows {
			cur += rows
		} else {
			for _, b := range hours[i:j] {
				if cur > 0 && cur+b.rows > sliceRows {
					cuts = append(cuts, b.hour)
					cur = 0
				}
				cur += b.rows
			}
		}
		i = j
	}
	at := func(h int64) string { return fmt.Sprintf("to_timestamp(%d)", h*int64(unit/time.Second)) }
	var wheres []string
	switch {
	case len(cuts) == 0:
		wheres = append(wheres, "ts IS NOT NULL")
	default:
		wheres = append(wheres, "ts < "+at(cuts[0]))
		for k := 1; k < len(cuts); k++ {
			wheres = append(wheres, "ts >= "+at(cuts[k-1])+" AND ts < "+at(cuts[k]))
		}
		wheres = append(wheres, "ts >= "+at(cuts[len(cuts)-1]))
	}
	if nulls > 0 {
		wheres = append(wheres, "ts IS NULL")
	}
	return wheres, nil
}

// parquetSchema returns the Arrow schema of the rows of table as the
// driver gives them.
func (r *Result) parquetSchema(ctx context.Context, table string) (*arrow.Schema, error) {
	q := "SELECT * FROM " + table + " LIMIT 0"
	rr, err := r.store.QueryArrow(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	return rr.Schema(), nil
}

// readParquetSlice calls write with each batch of the query q, whose
// schema must be schema.
func (r *Result) readParquetSlice(ctx context.Context, q string, schema *arrow.Schema, write func(arrow.RecordBatch) error) error {
	rr, err := r.store.QueryArrow(ctx, q)
	if err != nil {
		return err
	}
	defer rr.Release()
	if !sameFields(rr.Schema(), schema) {
		return fmt.Errorf("a slice of the rows has another schema: %s, want %s", rr.Schema(), schema)
	}
	for rr.Next() {
		if err := write(rr.RecordBatch()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("DuckDB: %w\nin: %s", err, q)
	}
	return nil
}

// sameFields tells whether a and b have the same names and types.
func sameFields(a, b *arrow.Schema) bool {
	if a.NumFields() != b.NumFields() {
		return false
	}
	for i, f := range a.Fields() {
		if g := b.Field(i); f.Name != g.Name || !arrow.TypeEqual(f.Type, g.Type) {
			return false
		}
	}
	return true
}

// newPartitionWriter returns a writer of the dataset of rows of schema
// into root, which must have a string column host and a timestamp column
// ts.
func newPartitionWriter(root string, schema *arrow.Schema, st *ParquetStats) (*partitionWriter, error) {
	w := &partitionWriter{root: root, schema: schema, st: st, hostCol: -1, tsCol: -1}
	for i, f := range schema.Fields() {
		st.Columns = append(st.Columns, f.Name)
		switch f.Name {
		case "host":
			w.hostCol = i
		case "ts":
			w.tsCol = i
		}
	}
	if w.hostCol < 0 || w.tsCol < 0 {
		return nil, fmt.Errorf("the view judged has no host or ts column (columns: %s)", strings.Join(st.Columns, ", "))
	}
	tsType, ok := schema.Field(w.tsCol).Type.(*arrow.TimestampType)
	if !ok {
		return nil, fmt.Errorf("column ts of judged is %s, not a timestamp", schema.Field(w.tsCol).Type)
	}
	w.tsUnit = tsType.Unit
	return w, nil
}

// writeRecord writes the rows of rec, whose columns are w's and then a
// boolean column telling the rows of ParquetOtherHosts, each into the
// partition of its host (or ParquetOtherHosts) and day, without that
// column. rec is not released.
func (w *partitionWriter) writeRecord(full arrow.RecordBatch) error {
	if int(full.NumCols()) != w.other+1 {
		return fmt.Errorf("a batch of %d columns, want %d", full.NumCols(), w.other+1)
	}
	other, ok := full.Column(w.other).(*array.Boolean)
	if !ok {
		return fmt.Errorf("column %s is %s, not a boolean", otherColumn, full.Column(w.other).DataType())
	}
	rec := array.NewRecordBatch(w.schema, full.Columns()[:w.other], full.NumRows())
	defer rec.Release()
	hosts, ok := rec.Column(w.hostCol).(interface {
		arrow.Array
		Value(int) string
	})
	if !ok {
		return fmt.Errorf("column host of judged is %s, not a string", rec.Column(w.hostCol).DataType())
	}
	ts, ok := rec.Column(w.tsCol).(*array.Timestamp)
	if !ok {
		return fmt.Errorf("column ts of judged is %s, not a timestamp", rec.Column(w.tsCol).DataType())
	}
	keyAt := func(i int) partitionKey {
		k := partitionKey{day: noDay}
		if hosts.IsValid(i) {
			k.host = hosts.Value(i)
		}
		if ts.IsValid(i) {
			k.day = utcDay(int64(ts.Value(i)), w.tsUnit)
		}
		if other.IsValid(i) && other.Value(i) {
			k.host, k.other = "", true
		}
		return k
	}
	n := int(rec.NumRows())
	for start := 0; start < n; {
		k := keyAt(start)
		end := start + 1
		for end < n && keyAt(end) == k {
			end++
		}
		if err := w.write(k, rec, int64(start), int64(end)); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// noDay is the day of a row without a time.
const noDay = int64(-1 << 62)

// partitionKey is the partition of a row: its host and UTC day (days since
// 1970-01-01).
type partitionKey struct {
	host string
	day  int64
	// other: a row of ParquetOtherHosts (host is "").
	other bool
}

// utcDay returns the days since 1970-01-01 of an instant v in unit.
func utcDay(v int64, unit arrow.TimeUnit) int64 {
	perDay := int64(24*time.Hour) / int64(unit.Multiplier())
	d := v / perDay
	if v%perDay < 0 {
		d--
	}
	return d
}

// partitionDir returns the directory of k below the dataset's top:
// "host=VALUE/day=YYYY-MM-DD".
func partitionDir(k partitionKey) string {
	day := hiveDefaultPartition
	if k.day != noDay {
		day = hivePartitionValue(time.Unix(k.day*86400, 0).UTC().Format("2006-01-02"))
	}
	host := hivePartitionValue(k.host)
	if k.other {
		host = ParquetOtherHosts
	}
	return filepath.Join("host="+host, "day="+day)
}

// hiveDefaultPartition is the directory name Hive and Spark give a NULL or
// empty partition value; DuckDB reads it as NULL.
const hiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// hivePartitionValue returns s as a partition value in a path: escaped as
// Hive's and Spark's escapePathName escape (control characters and
// "#%'*/:=?\{[]^ plus, as on Windows, space, <, > and |) and further bytes
// outside ASCII, upper-case letters and "~", each as %XX; "" is
// hiveDefaultPartition. A value whose "host=" segment would exceed a file
// name's 255 bytes is cut (never inside a %XX) and ends with "~" and 16
// hexadecimal digits of the SHA-256 of s, which no escaped value holds.
func hivePartitionValue(s string) string {
	if s == "" {
		return hiveDefaultPartition
	}
	const hexDigits = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7F || 'A' <= c && c <= 'Z' || strings.IndexByte("\"#%'*/:=?\\{[]^ <>|~", c) >= 0 {
			b.WriteByte('%')
			b.WriteByte(hexDigits[c>>4])
			b.WriteByte(hexDigits[c&15])
			continue
		}
		b.WriteByte(c)
	}
	v := b.String()
	maxValue := parquetMaxSegmentSize - len("host=")
	if len(v) <= maxValue {
		return v
	}
	sum := sha256.Sum256([]byte(s))
	suffix := "~" + hex.EncodeToString(sum[:8])
	cut := maxValue - len(suffix)
	if i := strings.LastIndexByte(v[:cut], '%'); i >= 0 && i > cut-3 {
		cut = i
	}
	return v[:cut] + suffix
}

// partitionWriter writes slices of record batches to the part files of
// their partitions, one file open at a time. Rows come in partition order,
// so it remembers only the partition it is in: its memory does not grow
// with the number of partitions.
type partitionWriter struct {
	root   string
	schema *arrow.Schema
	st     *ParquetStats
	// The columns that make the partition, and the unit of ts; other is
	// the index of otherColumn in the batches written.
	hostCol, tsCol, other int
	tsUnit                arrow.TimeUnit
	// dir is the partition directory being written (relative to root),
	// next its next part number.
	dir  string
	next int
	// The file open: its partition (the host cloned: the batch it came
	// from is released), file, buffer, writer and rows.
	key  partitionKey
	f    *os.File
	bw   *bufio.Writer
	fw   *pqarrow.FileWriter
	rows int64
}

// write writes rows [start, end) of rec, all of partition k.
func (w *partitionWriter) write(k partitionKey, rec arrow.RecordBatch, start, end int64) error {
	for start < end {
		if w.fw != nil && (w.key != k || w.rows >= parquetFileRows) {
			if err := w.closeFile(); err != nil {
				return err
			}
		}
		if w.fw == nil {
			if err := w.open(k); err != nil {
				return err
			}
		}
		n := min(end-start, parquetFileRows-w.rows)
		if err := w.writeRows(rec, start, start+n); err != nil {
			return err
		}
		start += n
	}
	return nil
}

// writeRows appends rows [start, end) of rec to the open file, starting a
// row group when the current one is full.
func (w *partitionWriter) writeRows(rec arrow.RecordBatch, start, end int64) error {
	if n, err := w.fw.RowGroupNumRows(); err == nil && (n >= parquetRowGroupRows || w.fw.RowGroupTotalBytesWritten() >= parquetRowGroupBytes) {
		if err := w.fw.NewBufferedRowGroupChecked(); err != nil {
			return err
		}
	}
	part := rec
	if start != 0 || end != rec.NumRows() {
		part = rec.NewSlice(start, end)
		defer part.Release()
	}
	if err := w.fw.WriteBuffered(part); err != nil {
		return fmt.Errorf("cannot write %s: %w", w.f.Name(), err)
	}
	w.rows += end - start
	w.st.Rows += end - start
	return nil
}

// open starts the next part file of partition k.
func (w *partitionWriter) open(k partitionKey) error {
	rel := partitionDir(k)
	if rel != w.dir {
		if err := w.leave(rel); err != nil {
			return err
		}
		dir := filepath.Join(w.root, rel)
		if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
			return err
		}
		// A partition written again (its day cut into two slices) goes on
		// with its next part number.
		if err := os.Mkdir(dir, 0o755); err == nil {
			w.st.Partitions++
		} else if !errors.Is(err, fs.ErrExist) {
			return err
		}
		w.dir, w.next = rel, 0
	}
	var f *os.File
	for {
		// O_EXCL, and the next number if taken: partitions that a file
		// system takes for one directory (an empty and a NULL host) never
		// overwrite each other's files.
		var err error
		f, err = os.OpenFile(filepath.Join(w.root, rel, "part-"+strconv.Itoa(w.next)+".parquet"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		w.next++
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	w.f, w.bw, w.rows = f, bufio.NewWriterSize(f, 1<<20), 0
	w.key = partitionKey{host: strings.Clone(k.host), day: k.day, other: k.other}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Zstd),
		parquet.WithDictionaryDefault(true), parquet.WithCreatedBy("crawlaudit"))
	// bw is no io.Closer: the writer leaves the file to closeFile.
	var err error
	w.fw, err = pqarrow.NewFileWriter(w.schema, w.bw, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Name(), err)
	}
	w.st.Files++
	return nil
}

// leave syncs the partition directory being left for next ("" at the end),
// and its host directory when next is of another host, so that their names
// are on disk before the dataset is renamed into place.
func (w *partitionWriter) leave(next string) error {
	if w.dir == "" {
		return nil
	}
	if err := syncDir(filepath.Join(w.root, w.dir)); err != nil {
		return err
	}
	if host := filepath.Dir(w.dir); next == "" || host != filepath.Dir(next) {
		return syncDir(filepath.Join(w.root, host))
	}
	return nil
}

// closeFile completes the open file: footer, flush, sync, close.
func (w *partitionWriter) closeFile() error {
	f := w.f
	err := w.fw.Close()
	if err == nil {
		err = w.bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	w.f, w.bw, w.fw = nil, nil, nil
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", f.Name(), err)
	}
	if fi, err := os.Stat(f.Name()); err == nil {
		w.st.Bytes += fi.Size()
	}
	return nil
}

// close completes the open file, if any, and syncs the directories.
func (w *partitionWriter) close() error {
	if w.fw != nil {
		if err := w.closeFile(); err != nil {
			return err
		}
	}
	return w.leave("")
}

// abort closes the open file, if any, after an error (the whole directory
// is removed by the caller).
func (w *partitionWriter) abort() {
	if w.fw != nil {
		w.fw.Close()
		w.f.Close()
		w.f, w.bw, w.fw = nil, nil, nil
	}
}

// syncDir syncs the directory d where the file system can.
func syncDir(d string) error {
	f, err := os.Open(d)
	if err != nil {
		return err
	}
	f.Sync() // best effort: some file systems cannot sync a directory
	return f.Close()
}

// writeSynced writes body to the new file path and syncs it.
func writeSynced(path string, body []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(body)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
