package audit

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/audit/store"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify"
)

// streamAvail keeps, while the logs stream, what queries/availability.sql
// reads of the requests: the /robots.txt responses that can
// open or close a period, and the time, row and verdict of the other
// requests, so that a month with a few failed /robots.txt answers need not
// have DuckDB scan every request for the periods and the requests they
// cover. Only the operator's own requests count (never a spoofed one);
// which bots are user-triggered and whose operator they share is known
// from bot_ops at the end.
//
// A host's requests are kept for good only from its first failed
// /robots.txt answer on, so that a month without one keeps little: a
// period begins at a failed answer. Before it, the host's requests wait in
// a buffer from which those more than availSlack older than the latest are
// dropped, since the judge meets requests out of time order (parsing
// goroutines hand over batches as they fill; files interleave). When a
// dropped request lies at or after the start of one of its host's periods,
// the SQL runs. So it does past maxStreamAvail requests kept.
type streamAvail struct {
	off     bool
	maxUS   int64 // the last bot request, spoofed or not: max(ts) of requests
	seen    bool  // maxUS is set
	fetches []availFetch
	reqs    []availReq
	pending int                  // requests waiting in the hosts' buffers
	hosts   map[int32]*availHost // by host dict id
	last    *availHost           // the host of the last request
	lastID  int32
}

// availHost is what streamAvail knows of a host: whether a bot's
// /robots.txt request was answered 4xx or 5xx yet, and the last of the
// requests it did not keep before that.
type availHost struct {
	failed     bool
	dropped    bool
	droppedMax int64
	// pending holds the requests before failed in blocks filled in turn,
	// each twice as large as the one before up to availBlock: appending
	// never copies, and a full block whose requests are all more than
	// availSlack older than the latest goes whole, its memory taken for the
	// next (growing one slice and trimming it copied each request several
	// times over a month).
	pending []availBlock
	n       int   // the requests in pending
	latest  int64 // the latest request in pending
}

// availBlock is a block of availHost.pending, with its latest request.
type availBlock struct {
	reqs   []availReq
	latest int64
}

// availSlack is how much older than a host's latest request one may be and
// still wait in its buffer (see streamAvail); maxAvailBlock is the size of
// the largest block of the buffer, in requests.
const (
	availSlack    = 7 * 24 * 3600 * 1_000_000 // µs
	maxAvailBlock = 4096
	// availKeep is how many requests a host keeps at the least: a log
	// whose parsers hand over a later batch of a host before an earlier
	// one (the scheduler's order) then loses none of a small month, where
	// a dropped request that a period covers would make the SQL measure
	// the availability (and a lean audit read the logs again).
	availKeep = 1 << 16
)

// push adds q to pending and returns how many requests it dropped: the
// blocks at the front that lie wholly more than availSlack before the
// latest request, when a new block is needed, as long as availKeep
// requests remain. Requests older than that may
// stay (a block holds some newer), which costs memory, never an answer.
func (h *availHost) push(q availReq) (dropped int) {
	k := len(h.pending)
	if k == 0 || len(h.pending[k-1].reqs) == cap(h.pending[k-1].reqs) {
		size := 16
		if k > 0 {
			size = min(2*cap(h.pending[k-1].reqs), maxAvailBlock)
		}
		var buf []availReq
		n := 0 // the blocks at the front that lie wholly before the slack
		for n < k-1 && h.n-len(h.pending[n].reqs) >= availKeep && h.pending[n].latest < h.latest-availSlack {
			b := h.pending[n]
			h.n -= len(b.reqs)
			if !h.dropped || b.latest > h.droppedMax {
				h.dropped, h.droppedMax = true, b.latest
			}
			dropped += len(b.reqs)
			if cap(b.reqs) == size {
				buf = b.reqs[:0]
			}
			n++
		}
		if n > 0 {
			h.pending = append(h.pending[:0], h.pending[n:]...)
		}
		if buf == nil {
			buf = make([]availReq, 0, size)
		}
		h.pending = append(h.pending, availBlock{reqs: buf, latest: q.us})
	}
	b := &h.pending[len(h.pending)-1]
	b.reqs = append(b.reqs, q)
	h.n++
	b.latest = max(b.latest, q.us)
	h.latest = max(h.latest, q.us)
	return dropped
}

// maxStreamAvail is the number of requests (32 bytes each) from which
// streamAvail gives up. Tests lower it.
var maxStreamAvail = 1 << 21

// availFetch is a /robots.txt response of a bot that is not spoofed.
type availFetch struct {
	us, line        int64
	host, bot, file int32
	status          int32
}

// availReq is another request of a bot that is not spoofed: its row in
// requests_store (rid, the order in which the judge stored it) and whether
// the version disallowed it (disallowed or disallowed_in_grace).
type availReq struct {
	rid, us   int64
	host, bot int32
	claim     int32 // its claim (a lean audit moves its count by bot, host and claim)
	// For a lean audit's block list (leanBlocks): its client address (a
	// leanAddr, -1 when not wanted), and the index of its verified claim's
	// disallowed count (-1: none).
	addr, held int32
	verdict    uint8 // the version's verdict (vAllowed, ...)
	disallowed bool
}

// add takes one stored bot request: rid is its row in requests_store,
// verdict the one the version gave it (vAllowed, ...), addr and held as
// availReq has them.
func (a *streamAvail) add(rid int64, host, bot int32, identity verify.Identity, us int64, file int32, line int64, fetch bool, status int32, hasStatus bool, claim int32, verdict uint8, addr, held int32) {
	disallowed := verdict == vDisallowed || verdict == vInGrace
	if a.off {
		return
	}
	if !a.seen || us > a.maxUS {
		a.maxUS, a.seen = us, true
	}
	if identity == verify.Spoofed {
		return
	}
	h := a.last
	if h == nil || a.lastID != host {
		if a.hosts == nil {
			a.hosts = map[int32]*availHost{}
		}
		if h = a.hosts[host]; h == nil {
			h = &availHost{}
			a.hosts[host] = h
		}
		a.last, a.lastID = h, host
	}
	if len(a.fetches)+len(a.reqs)+a.pending >= maxStreamAvail {
		a.off, a.fetches, a.reqs, a.hosts, a.last = true, nil, nil, nil, nil
		return
	}
	if fetch {
		if measure.StateOf(status, hasStatus) != measure.StateNone {
			a.fetches = append(a.fetches, availFetch{us: us, line: line, host: host, bot: bot, file: file, status: status})
			if !h.failed && hasStatus && status >= 400 && status <= 599 {
				h.failed = true
				for _, b := range h.pending {
					a.reqs = append(a.reqs, b.reqs...)
					a.pending -= len(b.reqs)
				}
				h.pending = nil
			}
		}
		return
	}
	q := availReq{rid: rid, us: us, host: host, bot: bot, claim: claim, addr: addr, held: held, verdict: verdict, disallowed: disallowed}
	if h.failed {
		a.reqs = append(a.reqs, q)
		return
	}
	a.pending += 1 - h.push(q)
}

// availOp is a bot's row of bot_ops (queries/bot_ops.sql).
type availOp struct {
	operator      string
	opKey         int64
	userTriggered bool
}

// store makes the tables availability.sql makes (robots_status, during,
// availability) from what a gathered, with the definitions of package
// measure; verdicts are the dict ids of disallowed_unreachable and
// allowed_unavailable. It returns false, having made nothing, when the SQL
// must run instead: a gave up, or two periods of one host and operator
// begin at the same instant (where the SQL's ASOF join may take either).
//
// moves, when not nil, receives the verdicts changed per bot, host, claim,
// address and verdict (a lean audit's availability_moves), and unheld the
// requests taken from a verified claim's disallowed count (availReq.held);
// versionVerdicts are the dict ids of the verdicts by index (judge.verdict).
func (a *streamAvail) store(ctx context.Context, s *store.Store, google bool, unreachableID, unavailableID int32, moves map[leanMove]int64, unheld map[int32]int64, versionVerdicts *[numVerdicts]int32) (bool, error) {
	if a == nil || a.off {
		return false, nil
	}
	ops := map[int32]availOp{}
	err := s.Each(ctx, `SELECT bot_id, operator, op_key, user_triggered FROM bot_ops`, nil, func(v []any) error {
		o := availOp{opKey: numeric(v[2])}
		o.operator, _ = v[1].(string)
		o.userTriggered, _ = v[3].(bool)
		ops[int32(numeric(v[0]))] = o
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("robots.txt availability: %w", err)
	}
	type key struct {
		host  int32
		opKey int64
	}
	gathered := map[key]*measure.Availability{}
	for i, f := range a.fetches {
		o, ok := ops[f.bot]
		if !ok || o.userTriggered {
			continue
		}
		k := key{f.host, o.opKey}
		if gathered[k] == nil {
			gathered[k] = &measure.Availability{}
		}
		gathered[k].Add(measure.Response{US: f.us, File: int64(f.file), Line: f.line, Status: f.status, Ref: i})
	}
	type row struct {
		key
		measure.Period
		operator string
		id       int64
	}
	var rows []*row
	periods := map[key][]measure.Period{}
	ids := map[key][]*row{}
	for k, g := range gathered {
		ps := g.Periods(a.maxUS)
		for i := range ps {
			if i > 0 && ps[i].From == ps[i-1].From {
				return false, nil
			}
			if h := a.hosts[k.host]; h != nil && h.dropped && h.droppedMax >= ps[i].From {
				return false, nil // a request it may cover was not kept
			}
			f := a.fetches[ps[i].Opened.Ref]
			r := &row{key: k, Period: ps[i], operator: ops[f.bot].operator}
			rows = append(rows, r)
			ids[k] = append(ids[k], r)
		}
		if len(ps) > 0 {
			periods[k] = ps
		}
	}
	// period_id: row_number() OVER (ORDER BY host_id, operator, ts, file_id, line).
	slices.SortFunc(rows, func(x, y *row) int {
		return cmp.Or(cmp.Compare(x.host, y.host), cmp.Compare(x.operator, y.operator), cmp.Compare(x.From, y.From),
			cmp.Compare(x.Opened.File, y.Opened.File), cmp.Compare(x.Opened.Line, y.Opened.Line))
	})
	status := make([][]any, len(rows))
	for i, r := range rows {
		r.id = int64(i + 1)
		f := a.fetches[r.Opened.Ref]
		kind := "unreachable"
		if r.Kind == measure.StateUnavailable {
			kind = "unavailable"
		}
		var to any
		if !r.Open {
			to = timeOfMicros(r.To)
		}
		status[i] = []any{r.id, r.host, r.operator, r.opKey, kind, timeOfMicros(r.From), to, f.status, f.bot, f.file, f.line}
	}
	// during and availability, as Arrow columns: the requests periods
	// cover may be many. A lean audit stores no request, so no table reads
	// availability's rows: its moves carry the changed verdicts.
	mem := memory.DefaultAllocator
	during := array.NewRecordBuilder(mem, duringSchema)
	defer during.Release()
	avail := array.NewRecordBuilder(mem, availabilitySchema)
	defer avail.Release()
	var (
		dRid      = during.Field(0).(*array.Int64Builder)
		dPeriod   = during.Field(1).(*array.Int64Builder)
		dVerdict  = during.Field(2).(*array.Int32Builder)
		dUnreach  = during.Field(3).(*array.BooleanBuilder)
		aRid      = avail.Field(0).(*array.Int64Builder)
		aVerdict  = avail.Field(1).(*array.Int32Builder)
		aUnreach  = avail.Field(2).(*array.BooleanBuilder)
		keepAvail = moves == nil
	)
	// The periods of each bot and host, looked up once per run of
	// requests of the same pair: the requests of a month with a failing
	// robots.txt are many, and three map lookups each were most of this.
	type cover struct {
		ps  []measure.Period
		ids []*row
	}
	covers := map[int64]*cover{}
	coverOf := func(bot, host int32) *cover {
		bk := int64(bot)<<32 | int64(uint32(host))
		if c, ok := covers[bk]; ok {
			return c
		}
		var c *cover
		if o, ok := ops[bot]; ok && !o.userTriggered {
			k := key{host, o.opKey}
			if ps := periods[k]; len(ps) > 0 {
				c = &cover{ps: ps, ids: ids[k]}
			}
		}
		covers[bk] = c
		return c
	}
	var (
		c                 *cover
		lastBot, lastHost int32 = -1, -1
	)
	for _, q := range a.reqs {
		if q.bot != lastBot || q.host != lastHost {
			lastBot, lastHost, c = q.bot, q.host, coverOf(q.bot, q.host)
		}
		if c == nil {
			continue
		}
		i := measure.Covering(c.ps, q.us)
		if i < 0 {
			continue
		}
		p := &c.ps[i]
		unreachable := p.Kind == measure.StateUnreachable
		dRid.Append(q.rid)
		dPeriod.Append(c.ids[i].id)
		dUnreach.Append(unreachable)
		if (unreachable || q.disallowed) && p.Affects(q.us, q.disallowed, google) {
			v := unavailableID
			if unreachable {
				v = unreachableID
			}
			dVerdict.Append(v)
			if keepAvail {
				aRid.Append(q.rid)
				aVerdict.Append(v)
				aUnreach.Append(unreachable)
			} else {
				moves[leanMove{q.bot, q.host, q.claim, versionVerdicts[q.verdict], q.addr}]--
				moves[leanMove{q.bot, q.host, q.claim, v, q.addr}]++
				if q.held >= 0 {
					unheld[q.held]--
				}
			}
		} else {
			dVerdict.AppendNull()
		}
	}
	if err := emptyAvailability(ctx, s); err != nil {
		return false, err
	}
	if err := s.InsertValues(ctx, "robots_status", status); err != nil {
		return false, fmt.Errorf("robots.txt availability: %w", err)
	}
	for _, b := range []struct {
		table string
		rb    *array.RecordBuilder
	}{{"during", during}, {"availability", avail}} {
		rec := b.rb.NewRecordBatch()
		err := s.Insert(ctx, b.table, rec)
		rec.Release()
		if err != nil {
			return false, fmt.Errorf("robots.txt availability: %w", err)
		}
	}
	return true, nil
}

// emptyAvailability makes the tables of availability.sql (robots_status,
// during, availability) with no row.
func emptyAvailability(ctx context.Context, s *store.Store) error {
	if err := s.Exec(ctx, `CREATE OR REPLACE TABLE robots_status (period_id BIGINT, host_id INTEGER, operator VARCHAR, op_key BIGINT,
    kind VARCHAR, from_ts TIMESTAMPTZ, to_ts TIMESTAMPTZ, status INTEGER, bot_id INTEGER, file_id INTEGER, line BIGINT);
CREATE OR REPLACE TEMP TABLE during (rid BIGINT, period_id BIGINT, verdict_id INTEGER, unreachable BOOLEAN);
DELETE FROM availability`); err != nil {
		return fmt.Errorf("robots.txt availability: %w", err)
	}
	return nil
}

// duringSchema and availabilitySchema are the columns of the tables
// during and availability.
var (
	duringSchema = arrow.NewSchema([]arrow.Field{
		{Name: "rid", Type: arrow.PrimitiveTypes.Int64},
		{Name: "period_id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "verdict_id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "unreachable", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	availabilitySchema = arrow.NewSchema([]arrow.Field{
		{Name: "rid", Type: arrow.PrimitiveTypes.Int64},
		{Name: "verdict_id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "unreachable", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
)

// timeOfMicros returns the instant us (Unix µs), in UTC.
func timeOfMicros(us int64) time.Time { return time.UnixMicro(us).UTC() }

// streamedAvailability makes availability.sql's tables from what the judge
// gathered (streamAvail), and reports whether it did: not when no bot's
// /robots.txt request failed (the SQL then scans nothing), when the judge
// did not stream, or when the audit is kept with --db, whose robots_status
// keeps the SQL's own making.
func (j *judge) streamedAvailability(ctx context.Context, s *store.Store, cfg Config) (bool, error) {
	if j.streamedAvail == nil || !j.robotsFailed || cfg.DB != "" {
		return false, nil
	}
	var moves map[leanMove]int64
	if j.lean != nil {
		moves, j.unheld = map[leanMove]int64{}, map[int32]int64{}
	}
	ok, err := j.streamedAvail.store(ctx, s, cfg.Profile == robots.Google, j.verdict[vUnreachable], j.verdict[vUnavailable], moves, j.unheld, &j.verdict)
	if ok && err == nil && moves != nil {
		err = leanMoves(ctx, s, moves, j.lean.blocks)
	}
	if ok && availStreamed != nil {
		availStreamed()
	}
	return ok, err
}

// availStreamed, when not nil, is called when streamedAvailability made the
// tables: tests see that the SQL did not.
var availStreamed func()

// availability returns what w kept for availability.sql's tables, or nil
// when there is no w.
func (w *streamKeys) availability() *streamAvail {
	if w == nil {
		return nil
	}
	return &w.avail
}
