//go:build duckdb_arrow

package audit

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"os"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/queries"
)

// leanCounts is what a lean audit (Config.Lean) gives DuckDB in place of
// every bot request: the requests counted per bot, host, claim, client
// address, verdict and the two flags the summary counts, with the first and
// last time of each (table lean_counts, queries/lean.sql). The view
// request_counts (queries/request_counts_lean.sql) has the shape of the
// full audit's (queries/request_counts.sql), so summary_counts.sql is one
// definition for both. Bots request from few addresses under few verdicts,
// so DuckDB copies and scans far fewer rows than requests
// (docs/performance.md has the figures).
//
// Memory is bounded: past maxLeanKeys keys the counts so far go to DuckDB
// as one batch and counting starts again; the SQL sums the partial counts.
//
// Of the dict, the SQL of a lean audit reads only the names of bots, hosts,
// files and verdicts (the summary, robots_status), so only those go to
// DuckDB (named), not the targets, User-Agents and addresses.
type leanCounts struct {
	index map[leanKey]int32
	rows  []leanRow
	// inline are the client addresses of rows, not in dict, by their
	// index (leanKey.ip is -2-i), and inlineIndex their indices: the key
	// holds a number, not a string, so that it hashes and compares as a
	// few machine words. Both start again with the rows (take).
	inline      []string
	inlineIndex map[string]int32
	stored      int   // rows handed to DuckDB so far
	taken       int32 // how many times take emptied rows (see leanMemo)
	// named has bit id set for each dict id the SQL reads (name): a bit
	// set, not a map, as a block list names every client address.
	named []uint64
	// blocks is for an audit that lists the block list (Config.BlockList),
	// which counts per client address what the counts above do not
	// carry (leanBlocks).
	blocks *leanBlocks
}

// leanBlocks is what a lean audit keeps for the block list beside the
// counts (queries/blocklist_source_lean.sql): the client address of each
// request the windows keep and of each request robots.txt's availability
// may move, so that the Crawl-delay and Request-rate breaches and the
// moved verdicts are told per address (lean_breaches, availability_moves);
// and the disallowed requests of verified claims per rule (lean_held), whose
// rule the reports name for a held-back crawler.
//
// An address is an int32 (leanAddr): its dict id, -1 for none logged, or
// -2-i for the i-th address not in dict. Memory is bounded: past
// maxLeanBlockKeys such addresses or held rules, the lean pass gives up
// (gaveUp) and Run reads the logs again storing every request.
type leanBlocks struct {
	inline    map[string]int32
	inlineIPs []string
	heldIndex map[leanHeldKey]int32
	held      []leanHeld
}

// leanHeldKey is a verified claim's disallowed requests from one address
// under one robots.txt group and deciding rule (decision: the judge's
// decision id, which names the rule and its line).
type leanHeldKey struct{ addr, bot, group, decision int32 }

// leanHeld is one leanHeldKey with its count.
type leanHeld struct {
	key leanHeldKey
	n   int64
}

// addr returns the leanAddr of a client address: ipID when in dict (it is
// then named, as the block list's SQL reads its value), -1 when none was
// logged, else the address's index among those not in dict.
func (b *leanBlocks) addr(l *leanCounts, ipID int32, ip string, none bool) int32 {
	switch {
	case ipID >= 0:
		l.name(ipID)
		return ipID
	case none:
		return -1
	}
	if i, ok := b.inline[ip]; ok {
		return -2 - i
	}
	i := int32(len(b.inlineIPs))
	b.inline[strings.Clone(ip)] = i
	b.inlineIPs = append(b.inlineIPs, strings.Clone(ip))
	return -2 - i
}

// heldOf counts a verified claim's disallowed request and returns its key's
// index (an availability move may take it back: unheld).
func (b *leanBlocks) heldOf(k leanHeldKey) int32 {
	if i, ok := b.heldIndex[k]; ok {
		b.held[i].n++
		return i
	}
	i := int32(len(b.held))
	b.heldIndex[k] = i
	b.held = append(b.held, leanHeld{key: k, n: 1})
	return i
}

// gaveUp reports whether b outgrew its bound.
func (b *leanBlocks) gaveUp() bool {
	return b != nil && (len(b.inlineIPs) >= maxLeanBlockKeys || len(b.held) >= maxLeanBlockKeys)
}

// maxLeanBlockKeys is how many addresses not in dict, and how many held
// rules, leanBlocks keeps (each under 100 bytes). Tests lower it.
var maxLeanBlockKeys = 1 << 19

// ipColumns returns the columns client_ip_id and client_ip of addr.
func (b *leanBlocks) ipColumns(addr int32) (id, ip any) {
	switch {
	case addr >= 0:
		return addr, nil
	case addr == -1:
		return nil, nil
	}
	return nil, b.inlineIPs[-2-addr]
}

// leanKey is what the summary tells apart among one bot's requests. A
// client address (ip) is its dict id, -1 when none was logged, or -2-i
// for the address leanCounts.inline[i], not in dict.
type leanKey struct {
	bot, host, claim, ip, verdict int32
	fetch, visit                  bool
}

// leanRow is one key with its count and its first and last request (µs).
type leanRow struct {
	key         leanKey
	n           int64
	first, last int64
	// What the key's requests cost and were answered (trafficCounts).
	traffic trafficCounts
	exposed int64 // how many of the n were pref_exposed
}

// trafficCounts are the sums of the bytes and the status classes of some
// requests, and how many used a method other than GET and HEAD: the
// columns bytes .. other_methods of lean_counts, which
// request_counts.sql counts per request.
type trafficCounts struct {
	bytes                        int64
	s2xx, s3xx, s304, s4xx, s5xx int64
	s429, otherMethods           int64
}

// add counts one request: its status (-1: none logged), bytes (a NULL
// counts 0) and whether its method is other than GET and HEAD. The classes
// part the statuses from 200 to 599: 3xx holds no 304, which has its own.
func (t *trafficCounts) add(status int32, bytes int64, other bool) {
	t.bytes += bytes
	switch {
	case status == 304:
		t.s304++
	case status >= 200 && status <= 299:
		t.s2xx++
	case status >= 300 && status <= 399:
		t.s3xx++
	case status == 429:
		t.s429++
		t.s4xx++
	case status >= 400 && status <= 499:
		t.s4xx++
	case status >= 500 && status <= 599:
		t.s5xx++
	}
	if other {
		t.otherMethods++
	}
}

// maxLeanKeys is how many keys leanCounts holds before it hands them to
// DuckDB (about 100 bytes each). Tests lower it.
var maxLeanKeys = 1 << 17

// LeanSchema is the Arrow schema of table lean_counts (queries/lean.sql).
var LeanSchema = arrow.NewSchema([]arrow.Field{
	{Name: "bot_id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "host_id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "claim_id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "client_ip_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "verdict_id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "robots_fetch", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "visit_breach", Type: arrow.FixedWidthTypes.Boolean},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	{Name: "first_ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "last_ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "bytes", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s2xx", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s3xx", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s304", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s4xx", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s5xx", Type: arrow.PrimitiveTypes.Int64},
	{Name: "s429", Type: arrow.PrimitiveTypes.Int64},
	{Name: "other_methods", Type: arrow.PrimitiveTypes.Int64},
	{Name: "pref_exposed", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// newLeanCounts returns empty counts; blocks: the block list is wanted
// (leanBlocks).
func newLeanCounts(blocks bool) *leanCounts {
	l := &leanCounts{index: map[leanKey]int32{}, inlineIndex: map[string]int32{}}
	if blocks {
		l.blocks = &leanBlocks{inline: map[string]int32{}, heldIndex: map[leanHeldKey]int32{}}
	}
	return l
}

// name notes that the SQL reads the dict entry id.
func (l *leanCounts) name(id int32) {
	w := int(id >> 6)
	if w >= len(l.named) {
		l.named = append(l.named, make([]uint64, w+1-len(l.named))...)
	}
	l.named[w] |= 1 << (id & 63)
}

// dictBatch returns the entries of dict that the SQL reads (see name), as
// a batch of DictSchema (the caller releases it).
func (l *leanCounts) dictBatch(mem memory.Allocator, dict []string) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, DictSchema)
	defer b.Release()
	for w, word := range l.named {
		for word != 0 {
			id := int32(w<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			b.Field(0).(*array.Int32Builder).Append(id)
			b.Field(1).(*array.StringBuilder).Append(dict[id])
		}
	}
	return b.NewRecordBatch()
}

// leanRequest is one judged request as leanCounts counts it. With
// inline set, its client address is inlineIP, not in dict, which count
// puts in key.ip.
type leanRequest struct {
	key      leanKey
	inline   bool
	inlineIP string
	us       int64
	status   int32 // -1: none logged
	bytes    int64 // none logged: 0
	// other: a method other than GET and HEAD.
	other, exposed bool
}

// count counts q, and remembers its key and row in m (nil: no memo). An
// address not in dict is copied: it may alias a batch's memory.
func (l *leanCounts) count(q *leanRequest, m *leanMemo) {
	var ex int64
	if q.exposed {
		ex = 1
	}
	if q.inline {
		i, ok := l.inlineIndex[q.inlineIP]
		if !ok {
			i = int32(len(l.inline))
			ip := strings.Clone(q.inlineIP)
			l.inline = append(l.inline, ip)
			l.inlineIndex[ip] = i
		}
		q.key.ip = -2 - i
	}
	var (
		at int32
		ok bool
	)
	if m != nil && m.row > 0 && m.taken == l.taken && m.key == q.key {
		at, ok = m.row-1, true
	} else {
		at, ok = l.index[q.key]
	}
	if !ok {
		k := q.key
		l.name(k.bot)
		l.name(k.host)
		at = int32(len(l.rows))
		l.index[k] = at
		l.rows = append(l.rows, leanRow{key: k, first: q.us, last: q.us})
	}
	if m != nil {
		m.key, m.row, m.taken = q.key, at+1, l.taken
	}
	r := &l.rows[at]
	r.n++
	r.exposed += ex
	r.first, r.last = min(r.first, q.us), max(r.last, q.us)
	r.traffic.add(q.status, q.bytes, q.other)
}

// leanMemo is the key a User-Agent's request was counted under last, with
// its row: a bot's requests come from few addresses under few verdicts,
// so most find their key here, compared as a few words, without hashing
// it for the map.
type leanMemo struct {
	key   leanKey
	row   int32 // index in leanCounts.rows plus one; 0: none
	taken int32 // leanCounts.taken when row was set: take empties rows
}

// full reports whether the counts should go to DuckDB now.
func (l *leanCounts) full() bool { return len(l.rows) >= maxLeanKeys }

// take returns the counts as a batch of LeanSchema (the caller releases
// it) and starts again.
func (l *leanCounts) take(mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, LeanSchema)
	defer b.Release()
	b.Reserve(len(l.rows))
	i32 := func(c int) *array.Int32Builder { return b.Field(c).(*array.Int32Builder) }
	for _, r := range l.rows {
		k := &r.key
		i32(0).Append(k.bot)
		i32(1).Append(k.host)
		i32(2).Append(k.claim)
		switch {
		case k.ip >= 0:
			i32(3).Append(k.ip)
			b.Field(4).(*array.StringBuilder).AppendNull()
		case k.ip == -1:
			i32(3).AppendNull()
			b.Field(4).(*array.StringBuilder).AppendNull()
		default:
			i32(3).AppendNull()
			b.Field(4).(*array.StringBuilder).Append(l.inline[-2-k.ip])
		}
		i32(5).Append(k.verdict)
		b.Field(6).(*array.BooleanBuilder).Append(k.fetch)
		b.Field(7).(*array.BooleanBuilder).Append(k.visit)
		b.Field(8).(*array.Int64Builder).Append(r.n)
		b.Field(9).(*array.TimestampBuilder).Append(arrow.Timestamp(r.first))
		b.Field(10).(*array.TimestampBuilder).Append(arrow.Timestamp(r.last))
		t := &r.traffic
		for c, v := range [...]int64{t.bytes, t.s2xx, t.s3xx, t.s304, t.s4xx, t.s5xx, t.s429, t.otherMethods} {
			b.Field(11 + c).(*array.Int64Builder).Append(v)
		}
		b.Field(19).(*array.Int64Builder).Append(r.exposed)
	}
	l.stored += len(l.rows)
	l.taken++
	l.rows = l.rows[:0]
	clear(l.index)
	l.inline = l.inline[:0]
	clear(l.inlineIndex)
	return b.NewRecordBatch()
}

// errNeedsRows stops a lean pass whose streamed measures gave up (too many
// bots or requests, robots.txt periods the stream cannot settle): the SQL
// that then measures them reads every request, so Run reads the logs again
// keeping them.
var errNeedsRows = errors.New("the measures need every bot request")

// rereadable reports whether every log can be read a second time, as a
// lean pass that gives up needs: not standard input ("-"), a pipe or a
// device. A name that is not a file (a glob) is expanded to files.
func rereadable(logs []string) bool {
	for _, l := range logs {
		if l == "-" {
			return false
		}
		if fi, err := os.Stat(l); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return false
		}
	}
	return true
}

// leanGaveUp reports why the judge's stream can no longer stand in for the
// SQL over every request while the logs are read, or "".
func (w *streamKeys) leanGaveUp() string {
	switch {
	case w == nil:
		return "no streamed measures"
	case w.off:
		return "too many bots for the streamed measures"
	case w.windowsOff:
		return "the windows are left to the SQL"
	case w.changes.off:
		return "the reactions to changes are left to the SQL"
	case w.conductOff:
		return "the conduct of the bots is left to the SQL"
	}
	return ""
}

// leanGaveUp reports why the lean counts can no longer stand in for the
// stored requests while the logs are read, or "".
func (j *judge) leanGaveUp() string {
	if why := j.stream.leanGaveUp(); why != "" {
		return why
	}
	if j.lean.blocks.gaveUp() {
		return "too many client addresses for the block list's counts"
	}
	return ""
}

// leanMoves writes the table availability_moves that request_counts_lean.sql
// adds to lean_counts: for each request whose verdict robots.txt's
// availability changed, one fewer under its old verdict and one more under
// the new, per bot, host and claim.
// and the new, per bot, host, claim and (for the block list: leanBlocks)
// client address.
func leanMoves(ctx context.Context, s *store.Store, moves map[leanMove]int64, blocks *leanBlocks) error {
	if err := s.Exec(ctx, `CREATE OR REPLACE TEMP TABLE availability_moves (bot_id INTEGER, host_id INTEGER,
    claim_id INTEGER, client_ip_id INTEGER, client_ip VARCHAR, verdict_id INTEGER, n BIGINT)`); err != nil {
		return err
	}
	rows := make([][]any, 0, len(moves))
	for m, n := range moves {
		if n != 0 {
			var id, ip any
			if blocks != nil {
				id, ip = blocks.ipColumns(m.addr)
			}
			rows = append(rows, []any{m.bot, m.host, m.claim, id, ip, m.verdict, n})
		}
	}
	return insertRows(ctx, s, "availability_moves", movesSchema, rows)
}

// movesSchema, breachesSchema and heldSchema are the Arrow schemas of the
// tables availability_moves, lean_breaches and lean_held.
var (
	movesSchema = arrow.NewSchema([]arrow.Field{
		{Name: "bot_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "host_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "claim_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "client_ip_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "verdict_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	breachesSchema = arrow.NewSchema([]arrow.Field{
		{Name: "client_ip_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "crawl_delay", Type: arrow.PrimitiveTypes.Int64},
		{Name: "request_rate", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	heldSchema = arrow.NewSchema([]arrow.Field{
		{Name: "client_ip_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "client_ip", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bot_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "robots_group_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "rule_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "rule_line", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
)

// insertRows inserts rows, whose cells are int32, int64, string or nil
// (NULL) as schema's columns are, into table as one Arrow batch: a hostile
// log's hundreds of thousands of addresses would take thousands of
// statements of SQL values (store.InsertValues).
func insertRows(ctx context.Context, s *store.Store, table string, schema *arrow.Schema, rows [][]any) error {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	b.Reserve(len(rows))
	for _, r := range rows {
		for c, v := range r {
			ok := true
			switch f := b.Field(c).(type) {
			case *array.Int32Builder:
				var x int32
				if x, ok = v.(int32); ok {
					f.Append(x)
				}
			case *array.Int64Builder:
				var x int64
				if x, ok = v.(int64); ok {
					f.Append(x)
				}
			case *array.StringBuilder:
				var x string
				if x, ok = v.(string); ok {
					f.Append(x)
				}
			default:
				ok = false
			}
			if !ok {
				if v != nil {
					return fmt.Errorf("%s: column %s cannot hold %T", table, schema.Field(c).Name, v)
				}
				b.Field(c).AppendNull()
			}
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	if err := s.Insert(ctx, table, rec); err != nil {
		return fmt.Errorf("%s: %w", table, err)
	}
	return nil
}

// leanMove is a key of availability_moves; addr is a leanAddr (-1 when the
// block list is not wanted).
type leanMove struct{ bot, host, claim, verdict, addr int32 }

// storeBlocks writes the tables lean_breaches and lean_held that
// queries/blocklist_source_lean.sql reads: the Crawl-delay and
// Request-rate breaches per client address (breaches, by leanAddr), and the
// verified claims' disallowed requests per address and rule, less those
// robots.txt's availability moved (unheld, by index of b.held).
func (b *leanBlocks) store(ctx context.Context, s *store.Store, decisions []verdictRule, breaches map[int32][2]int64, unheld map[int32]int64) error {
	if err := s.Exec(ctx, `CREATE OR REPLACE TEMP TABLE lean_breaches (client_ip_id INTEGER, client_ip VARCHAR,
    crawl_delay BIGINT, request_rate BIGINT);
CREATE OR REPLACE TEMP TABLE lean_held (client_ip_id INTEGER, client_ip VARCHAR, bot_id INTEGER,
    robots_group_id INTEGER, rule_id INTEGER, rule_line INTEGER, n BIGINT)`); err != nil {
		return err
	}
	rows := make([][]any, 0, len(breaches))
	for a, n := range breaches {
		id, ip := b.ipColumns(a)
		rows = append(rows, []any{id, ip, n[0], n[1]})
	}
	if err := insertRows(ctx, s, "lean_breaches", breachesSchema, rows); err != nil {
		return err
	}
	rows = rows[:0]
	for i, h := range b.held {
		n := h.n + unheld[int32(i)]
		if n <= 0 {
			continue
		}
		id, ip := b.ipColumns(h.key.addr)
		d := decisions[h.key.decision]
		rows = append(rows, []any{id, ip, h.key.bot, nullID(h.key.group), nullID(d.rule), nil, n})
		if d.rule >= 0 {
			rows[len(rows)-1][5] = d.line
		}
	}
	return insertRows(ctx, s, "lean_held", heldSchema, rows)
}

// requestCounts makes the view request_counts that summary_counts.sql reads:
// over every request, or over lean_counts.
func requestCounts(ctx context.Context, s *store.Store, lean bool) error {
	q := "request_counts.sql"
	if lean {
		q = "request_counts_lean.sql"
	}
	if err := s.Exec(ctx, queries.SQL(q)); err != nil {
		return fmt.Errorf("the counts of the summary: %w", err)
	}
	return nil
}

// maxOneThreadRows is the size of the tables below which a lean audit's
// queries run on one DuckDB thread (sqlThreads).
const maxOneThreadRows = 1 << 16

// sqlThreads is the number of threads DuckDB runs the queries after the
// read on: every core, but one when the audit is lean and its tables small
// (the counts and the claims under maxOneThreadRows rows; a few hundred on
// a realistic month): on tables that small, scheduling a query's pipelines
// over two threads costs more than it saves (docs/performance.md has the
// figures).
func sqlThreads(j *judge) int {
	if j.lean != nil && j.lean.stored < maxOneThreadRows && int(j.claims.base)+len(j.claims.list) < maxOneThreadRows {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}
