package audit

import (
	"context"
	"fmt"
	"math"
	"net/netip"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/audit/measure"
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/robots/history"
	"github.com/crawlaudit/crawlaudit/verify"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// Verdicts of the requests table's verdict column.
const (
	VerdictAllowed    = "allowed"
	VerdictDisallowed = "disallowed"
	VerdictInGrace    = "disallowed_in_grace"
	VerdictUnaudited  = "unaudited"
	// VerdictUserTriggered: a request robots.txt would disallow, made by a
	// user-triggered fetcher whose operator states that robots.txt does
	// not apply to it (bots.CrawlerRule.UserTriggered).
	VerdictUserTriggered = "user_triggered"
	// VerdictUnreachable: a request made while the operator's last
	// robots.txt response was a 5xx or 429: complete disallow, whatever
	// the version in effect says (RFC 9309 §2.3.1.4).
	VerdictUnreachable = "disallowed_unreachable"
	// VerdictUnavailable: a request the version in effect disallows, made
	// while the operator's last robots.txt response was a 4xx other than
	// 429: the crawler may access anything (RFC 9309 §2.3.1.3).
	VerdictUnavailable = "allowed_unavailable"
)

// The judge's memory is bounded whatever the logs hold, since anyone who
// can send a request writes them: every map that grows with distinct
// values of the logs (targets, User-Agents, addresses) is bounded in bytes or
// entries, and a single value costs at most a bounded share of it. (They
// are variables for the tests, which shrink them.)
var (
	// maxDictBytes bounds the dict (its strings and their overhead): past
	// it, targets, User-Agents and client addresses not yet interned are
	// written into their rows (see RequestsSchema). The strings the
	// judge itself needs (bot names, hosts, verdicts, rules, files,
	// methods) are interned whatever the budget.
	maxDictBytes = 64 << 20
	// maxInternBytes: a longer target, User-Agent or address is never
	// interned: DuckDB keeps it, in the row, and the judge forgets it
	// once the row is sent.
	maxInternBytes = 1 << 10
	// dictEntryBytes is what an entry of the dict costs beside its
	// string: its slice element and its map entry.
	dictEntryBytes = 64
	// maxUABytes bounds the User-Agent states (see resetUAs).
	maxUABytes = 32 << 20
	// uaStateBytes is what a User-Agent state costs beside its string.
	uaStateBytes = 256
	// maxDecisions bounds the path decisions remembered over all the
	// (version, group) pairs; when there are more, every cache is emptied,
	// so memory does not grow with the distinct URLs of the logs.
	maxDecisions = 1 << 20
	// maxAddrCache bounds the entries of the caches keyed by a client
	// address as logged (ipIDs, fwdIDs); a full cache is emptied. Keys
	// longer than maxCacheKey are never cached.
	maxAddrCache = 1 << 19
	// maxPendingBytes: judged rows are sent to DuckDB when the strings
	// written into them reach this many bytes, whatever their number.
	maxPendingBytes = 16 << 20
	// maxClaims and maxBotRows: a judge that spills (spillWhileJudging)
	// hands its claims and its rows of the table "bots" to DuckDB when it
	// holds this many, so that neither grows with the distinct bot names
	// and addresses of the logs (claims: about 200 bytes each).
	maxClaims  = 1 << 16
	maxBotRows = 1 << 16
)

const maxCacheKey = 256

// judge is the vectorised matcher: it takes the ingest layer's batches and
// appends, for every request of a bot, one row of RequestsSchema with the
// verdict against the robots.txt version in effect at the request's time.
//
// Work is done per distinct value, not per row, wherever the value repeats:
// the bot and the robots.txt group are decided once per distinct User-Agent
// (batches carry it dictionary-encoded) and version; a path is matched once
// per (version, group) and remembered; the host's history is looked up once
// per distinct host. What remains per row is a few slice lookups and a map
// probe keyed by the path's bytes, which does not allocate. Repeated strings
// leave as ids into one dictionary (see RequestsSchema).
//
// A judge is not safe for concurrent use.
type judge struct {
	hist     *history.History
	versions []version // by history.Version.ID
	graceUS  int64     // --grace; 0: no grace period
	// rules are the operator rules (--operators); noGroup is the group
	// with no rules, for a crawler that no group restricts.
	rules       *bots.Rules
	noGroup     *robots.Resolved
	graceForAll bool // graceUS also for operators that document a grace
	fromUS      int64
	toUS        int64 // inclusive

	// unsureFrom is, by version ID, when the next version of its host may
	// already have been live (see uncertainFrom).
	unsureFrom []int64
	// sizes are the 200 answers to GET /robots.txt, for RobotsEvidence.
	sizes robotsSizes

	ident *bots.Identifier
	// handoff has the bots the human filters identified while the logs
	// are read (judgeInto); nil otherwise.
	handoff *botHandoff
	// claims verifies who made each bot request: a User-Agent is only a
	// claim, settled by the operator's ranges or reverse DNS.
	claims *claims
	// sig verifies signed requests (Web Bot Auth); nil for a judge that
	// cannot, which stops at the first signed request
	// (errSignedUnsupported).
	sig *sigJudge

	uaIDs    map[string]int32 // User-Agent → index in uas
	uas      []*uaState
	absentUA int32            // index in uas of the state of rows without a User-Agent; -1 until seen
	hostIDs  map[string]int32 // host as logged → index in hosts
	hosts    []hostState
	ipIDs    map[string]int32 // client address as logged → dict id of its canonical form
	// trusted are the --trusted-proxy prefixes; fwdIDs caches, per remote
	// address and forwarded chain, the dict id of the client behind them.
	trusted []netip.Prefix
	fwdIDs  map[string]int32
	// collectClients: the human filters remember every human client's
	// address, gathered in clients when the logs are read (Config.SeenClients).
	collectClients bool
	clients        map[netip.Addr]struct{}
	// refererSeen: a request of the period carried a Referer; referred
	// counts the human requests each operator's products referred, per
	// judged host (the human filters count them).
	refererSeen bool
	referred    map[referralKey]int64

	groupStates map[groupKey]*groupState

	// dict interns the strings of the *_id columns; dictBytes is about
	// what it costs (see maxDictBytes).
	dictIDs *stringIndex // the id of each string of dict
	dict    []string
	arena   stringArena // holds the strings of dict
	// dictStored: the entries of dict before it went to DuckDB with the
	// judged rows (judgeInto).
	dictStored int
	dictBytes  int
	verdict    [numVerdicts]int32 // dict ids of the verdicts

	// uaBytes is about what uas and uaIDs cost (see maxUABytes); bots are
	// the states kept by resetUAs, one per bot name, at the start of uas,
	// when the judge does not spill (see spillWhileJudging).
	uaBytes int
	bots    int
	botKept []bool // by the dict id of a bot name: it is among the kept states
	// spill: claims and bots rows go to DuckDB while the logs are judged
	// (spillWhileJudging); mem allocates their batches.
	spill bool
	mem   memory.Allocator
	// botsOut are the rows of the table "bots" not yet stored, one per
	// bot name, made when the name is first met; botSeen has the bit of
	// a bot name's dict id set once its row is made.
	botsOut *botsRows
	botSeen []uint64
	// decisions are the distinct decisions of all groups: the groups'
	// tables of path decisions hold indices into it. decisionsCached is
	// the number of path decisions the groups hold.
	decisionList    []decision
	decisionsCached int
	// inlineBytes are the bytes of the strings written into the rows not
	// yet flushed.
	inlineBytes int

	// policies and decisions intern the rows of the tables of the same
	// names, for the policy_id and decision_id columns.
	policyIDs map[policy]int32
	policies  []policy
	// ignoredOf has, by policy id, the id plus one of the same policy
	// for a crawler that ignores Crawl-delay (delayIgnored); 0: not yet.
	ignoredOf         []int32
	decisionIDs       map[verdictRule]int32
	decisions         []verdictRule
	unauditedDecision int32

	out     *array.RecordBuilder
	outCols outColumns
	scratch []byte
	// lastIP is the canonical client address clientOf found last.
	lastIP string

	// stream keeps what the windows and the changes need of each bot
	// request (nil: the SQL measures them all); streamed is what it
	// gathered of the changes (see streamKeys.finishChanges), and row the
	// request it is told of.
	stream *streamKeys
	// measured is what the stream measured for the summary once the logs
	// were read (streamKeys.measure).
	measured        *streamedSummary
	streamedChanges []streamedChange
	// streamedAvail is what the stream kept for availability.sql's tables
	// (streamAvail); nil when it did not stream.
	streamedAvail *streamAvail
	streamRow     streamRow
	// lean, for a lean audit (Config.Lean), counts the judged rows in
	// place of handing them to DuckDB; nil: every row is stored.
	lean *leanCounts
	// unheld are the verified claims' disallowed requests robots.txt's
	// availability moved, by index of lean.blocks.held.
	unheld map[int32]int64
	// leanReq is the request add hands lean (kept here so that passing
	// it by pointer does not move it to the heap each time).
	leanReq leanRequest

	// robotsFailed: a bot's request for /robots.txt was answered 4xx or
	// 5xx, which may open a period of unreachable or unavailable
	// robots.txt (availability.sql looks for them only then).
	robotsFailed bool

	// Counts for the summary.
	unaudited    int64
	outside      int64
	wholeSeconds bool
	rows         int64
	botRows      int64
}

// Indices of judge.verdict.
const (
	vAllowed = iota
	vDisallowed
	vInGrace
	vUnaudited
	vUserTriggered
	vUnreachable
	vUnavailable
	numVerdicts
)

// version is one compiled robots.txt version.
type version struct {
	name   int32 // dict id of its name
	robots *robots.Robots
}

// uaState is what the judge knows of one distinct User-Agent.
type uaState struct {
	ua string
	id int32 // dict id of ua; -1 for an absent header, or one not interned
	// inline: a bot's header written into its rows (not interned).
	inline bool
	bot    bots.Bot
	botID  int32 // dict id of bot.Name
	// verifiable: a range list or the operator's reverse DNS can tell
	// whether a request of this bot came from its operator.
	verifiable bool
	// What its operator documents (package bots' rules): how it picks its
	// group, whether robots.txt applies to it at all, and its cache
	// grace in µs (0: none).
	rule    bots.CrawlerRule
	graceUS int64
	// delayIgnoredUS is the instant (µs) from which its operator says it
	// ignores Crawl-delay; math.MaxInt64 when it supports it.
	delayIgnoredUS int64
	groups         map[int]*groupState // by version ID, made and filled lazily
	// lastVersion and lastGroup are the last answer of group (lastGroup
	// nil: none yet).
	lastVersion int
	lastGroup   *groupState
	// limits says, per history host index, whether some version of the
	// host gives it a Crawl-delay or a Request-rate (see mayLimit);
	// lastLimitHost (the index plus one) and lastLimit are the last answer.
	limits        map[int]bool
	lastLimitHost int
	lastLimit     bool
	// streamKey is the index plus one of the last streamKeys key of its
	// requests (0: none): streamBot, streamHost and streamIdentity.
	streamKey             int32
	streamBot, streamHost int32
	streamIdentity        uint8
	// contact: 0 not known yet, 1 no, 2 its header carries a URL or an
	// e-mail address (measure.HasContact).
	contact int8
	// prefRefusable has the bit of each preference category that refuses
	// the bot's purpose (prefRefusable); 0 when no preference can.
	prefRefusable uint8
	// leanMemo is the key of the lean counts its last request went to.
	leanMemo leanMemo
}

// groupState is one (version, group) pair with its path decisions.
type groupState struct {
	group *robots.Resolved
	// decided has the decision of each target met, by its dict id, as
	// an index into judge.decisionList.
	decided tidTable
	// byRule has the index in judge.decisionList of the decision of each
	// deciding rule of the group, by ruleKey: a path's decision is known
	// once the matcher has said which rule decides it.
	byRule map[int64]uint32
	// What the group puts in force. The Request-rate may depend on the
	// time of day: then it is asked per row, and the policy with it.
	policy   policy
	policyID int32 // id of policy when the rate does not depend on the time
	// lastPolicy is the id plus one of the policy policyAt found last
	// (0: none).
	lastPolicy   int32
	rateWindowed bool // the Request-rate depends on the time of day
}

// policy is what a robots.txt version puts in force for a request: one row
// of the table "policies".
type policy struct {
	version      int32 // dict id of the version's name
	group        int32 // dict id of "googlebot", "*"; -1 when no group applies
	crawlDelay   float64
	hasDelay     bool
	delayIgnored bool // the crawler's operator says it ignores Crawl-delay
	rateN, rateS int32
	hasRate      bool
	visit        int32 // dict id of the Visit-time window "HHMM-HHMM"; -1 when none
}

// verdictRule is a verdict with the rule that decided it: one row of the
// table "decisions".
type verdictRule struct {
	verdict int32 // dict id
	rule    int32 // dict id of the deciding rule ("Disallow: /private/"); -1 when none
	line    int32 // its line; 0 when none
}

// decision is the verdict on one path.
type decision struct {
	allowed bool
	// refused has bit c set when the AI-use preference in effect for the
	// path says n for robots.Category c (decidePrefs).
	refused uint8
	id      int32 // decision id: allowed or disallowed, with the rule
	graceID int32 // decision id of disallowed_in_grace with the rule; -1 when allowed
	userID  int32 // decision id of user_triggered with the rule; -1 when allowed
}

// hostState is one distinct host value of the logs.
type hostState struct {
	name   string // the judged host: the history's name, or the logged one
	id     int32  // dict id of name
	hi     int    // history host index; -1: no history applies
	cursor history.Cursor
	// Requests counted for the host value, by humans and by bots.
	humans, bots int64
	// changes are the indices of the robots.txt changes of name in
	// streamChanges.list, once changesKnown.
	changes      []int32
	changesKnown bool
}

// hostTraffic is the request count of one judged host name.
type hostTraffic struct{ humans, bots int64 }

// traffic returns the request counts per judged host name (several logged
// values, "Example.com" and "example.com:443", can share a name).
func (j *judge) traffic() map[string]hostTraffic {
	m := make(map[string]hostTraffic)
	for _, hs := range j.hosts {
		if hs.humans == 0 && hs.bots == 0 {
			continue
		}
		t := m[hs.name]
		t.humans += hs.humans
		t.bots += hs.bots
		m[hs.name] = t
	}
	return m
}

// outColumns are the typed builders of RequestsSchema.
type outColumns struct {
	ts                       *array.TimestampBuilder
	clientIP, target         *array.Int32Builder
	host, method, ua, bot    *array.Int32Builder
	file, status             *array.Int32Builder
	policy, decision         *array.Int32Builder
	bytes, line              *array.Int64Builder
	visitBreach, robotsFetch *array.BooleanBuilder
	claim                    *array.Int32Builder
	retryAfter               *array.Int32Builder
	prefExposed              *array.BooleanBuilder
	// The strings not interned, mostly null.
	targetStr, uaStr, ipStr lazyStrings
}

// lazyStrings appends to a string column that is mostly null: nulls are
// counted and appended in one go before the next value, or by flush.
type lazyStrings struct {
	b     *array.StringBuilder
	nulls int
}

func (l *lazyStrings) appendNull() { l.nulls++ }

func (l *lazyStrings) append(s string) {
	l.flush()
	l.b.Append(s)
}

func (l *lazyStrings) flush() {
	if l.nulls > 0 {
		l.b.AppendNulls(l.nulls)
		l.nulls = 0
	}
}

func newJudge(mem memory.Allocator, hist *history.History, profile robots.Profile, ident *bots.Identifier, ranges <-chan rangesResult) *judge {
	j, _ := newJudgeContext(context.Background(), mem, hist, profile, ident, ranges)
	return j
}

// newJudgeContext is newJudge that stops compiling the robots.txt versions
// when ctx is done, and then returns ctx's error: a history of hundreds of
// large versions takes seconds to compile, and Ctrl-C must not wait for it.
func newJudgeContext(ctx context.Context, mem memory.Allocator, hist *history.History, profile robots.Profile, ident *bots.Identifier, ranges <-chan rangesResult) (*judge, error) {
	j := &judge{
		mem:          mem,
		botsOut:      newBotsRows(mem),
		hist:         hist,
		ident:        ident,
		claims:       newClaims(ranges),
		uaIDs:        make(map[string]int32),
		absentUA:     -1,
		hostIDs:      make(map[string]int32),
		ipIDs:        make(map[string]int32),
		groupStates:  make(map[groupKey]*groupState),
		dictIDs:      newStringIndex(),
		policyIDs:    make(map[policy]int32),
		decisionIDs:  make(map[verdictRule]int32),
		wholeSeconds: true,
		fromUS:       -1 << 63,
		toUS:         1<<63 - 1,
	}
	for i, v := range []string{VerdictAllowed, VerdictDisallowed, VerdictInGrace, VerdictUnaudited, VerdictUserTriggered, VerdictUnreachable, VerdictUnavailable} {
		j.verdict[i] = j.intern(v)
	}
	j.unauditedDecision = j.decisionID(verdictRule{verdict: j.verdict[vUnaudited], rule: -1})
	j.rules = bots.BuiltinRules()
	j.noGroup = robots.Compile(robots.Parse(nil), profile).Default()
	for _, v := range hist.All() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		j.versions = append(j.versions, version{
			name:   j.intern(v.Name),
			robots: robots.Compile(robots.Parse(v.Data), profile),
		})
	}
	j.unsureFrom = uncertainFrom(hist)
	j.out = array.NewRecordBuilder(mem, RequestsSchema)
	f := j.out.Field
	i32 := func(c int) *array.Int32Builder { return f(c).(*array.Int32Builder) }
	j.outCols = outColumns{
		ts:          f(rcTS).(*array.TimestampBuilder),
		host:        i32(rcHostID),
		clientIP:    i32(rcClientIPID),
		method:      i32(rcMethodID),
		target:      i32(rcTargetID),
		status:      i32(rcStatus),
		bytes:       f(rcBytes).(*array.Int64Builder),
		ua:          i32(rcUserAgentID),
		bot:         i32(rcBotID),
		file:        i32(rcFileID),
		line:        f(rcLine).(*array.Int64Builder),
		policy:      i32(rcPolicyID),
		decision:    i32(rcDecisionID),
		visitBreach: f(rcVisitBreach).(*array.BooleanBuilder),
		robotsFetch: f(rcRobotsFetch).(*array.BooleanBuilder),
		claim:       i32(rcClaimID),
		targetStr:   lazyStrings{b: f(rcTarget).(*array.StringBuilder)},
		uaStr:       lazyStrings{b: f(rcUserAgent).(*array.StringBuilder)},
		ipStr:       lazyStrings{b: f(rcClientIP).(*array.StringBuilder)},
		retryAfter:  i32(rcRetryAfter),
		prefExposed: f(rcPrefExposed).(*array.BooleanBuilder),
	}
	return j, nil
}

// plainMethod reports whether the method of dict id is GET or HEAD, the
// methods a crawler is expected to use (draft-illyes-webbotauth-cbcp-01
// §2.3); method names are case-sensitive (RFC 9110 §9.1).
func (j *judge) plainMethod(id int32) bool { return j.dict[id] == "GET" || j.dict[id] == "HEAD" }

func (j *judge) release() {
	j.out.Release()
	j.botsOut.release()
}

// spillWhileJudging makes j hand its claims and the rows of the table "bots"
// to DuckDB while it judges (spilled, which judgeInto sends with the judged
// rows), and keep no state per bot name but its dict entry. Not for an
// audit with reverse DNS, which settles the claims at the end, nor for
// PartialAuditor, which reads them at the end.
func (j *judge) spillWhileJudging() {
	j.spill = true
	j.claims.spill = true
}

// intern returns the dict id of s, which may alias a batch's memory.
func (j *judge) intern(s string) int32 {
	if id, ok := j.dictIDs.find(j.dict, s); ok {
		return id
	}
	id := int32(len(j.dict))
	j.dict = append(j.dict, j.arena.clone(s))
	j.dictIDs.add(j.dict, id)
	j.dictBytes += len(s) + dictEntryBytes
	return id
}

// internBounded returns the dict id of s, interning it if it is short and
// the dict within its budget (maxDictBytes), or -1: the row then carries s
// itself. Once interned, s always has its id. s may alias a batch's memory.
func (j *judge) internBounded(s string) int32 {
	if id, ok := j.dictIDs.find(j.dict, s); ok {
		return id
	}
	if len(s) > maxInternBytes || j.dictBytes >= maxDictBytes {
		return -1
	}
	return j.intern(s)
}

// dictBatch returns the dict entries from id from on as a record batch of
// DictSchema (the caller releases it).
func (j *judge) dictBatch(mem memory.Allocator, from int) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, DictSchema)
	defer b.Release()
	ids := b.Field(0).(*array.Int32Builder)
	vals := b.Field(1).(*array.StringBuilder)
	for i := from; i < len(j.dict); i++ {
		ids.Append(int32(i))
		vals.Append(j.dict[i])
	}
	return b.NewRecordBatch()
}

// pending returns the number of judged rows not yet taken by flush, or
// flushRows when the strings written into them reach maxPendingBytes, or
// when a judge that spills holds maxClaims claims or maxBotRows bots rows:
// the caller flushes at flushRows (and takes spilled), so rows go by bytes
// too, and claims and bots rows by their number.
func (j *judge) pending() int {
	if j.inlineBytes >= maxPendingBytes || j.claims.full() || (j.spill && j.botsOut.len() >= maxBotRows) {
		return max(flushRows, j.outCols.ts.Len())
	}
	return j.outCols.ts.Len()
}

// flush returns the judged rows so far as a record batch (the caller
// releases it) and starts a new one.
func (j *judge) flush() arrow.RecordBatch {
	c := &j.outCols
	c.targetStr.flush()
	c.uaStr.flush()
	c.ipStr.flush()
	j.inlineBytes = 0
	return j.out.NewRecordBatch()
}

// uaState returns the index of the state of the User-Agent ua ("" with
// absent for no header), identifying its bot the first time it is seen. ua
// may alias a batch's memory.
func (j *judge) uaState(ua string, absent bool) int32 {
	if absent {
		if j.absentUA < 0 {
			j.absentUA = j.newUAState("", false)
		}
		return j.absentUA
	}
	if id, ok := j.uaIDs[ua]; ok {
		return id
	}
	id := j.newUAState(ua, true)
	j.uaIDs[j.uas[id].ua] = id
	j.uaBytes += len(ua) + uaStateBytes
	return id
}

// resetUAs forgets the User-Agent states when they cost more than
// maxUABytes: a header seen again is identified again. Unless the judge
// spills, the first state of each bot name stays, without its header, at
// the start of uas (j.bots of them: they cost per bot name, not per
// header), for PartialAuditor. It is called between batches only, when no
// index into uas is held.
func (j *judge) resetUAs() {
	if j.uaBytes < maxUABytes {
		return
	}
	kept := j.uas[:j.bots]
	for _, st := range j.uas[j.bots:] {
		if j.spill {
			break // what the table "bots" needs is in botsOut already
		}
		if !st.bot.IsBot {
			continue
		}
		for int(st.botID) >= len(j.botKept) {
			j.botKept = append(j.botKept, false)
		}
		if j.botKept[st.botID] {
			continue
		}
		j.botKept[st.botID] = true
		kept = append(kept, &uaState{bot: st.bot, id: -1, botID: st.botID, verifiable: st.verifiable, rule: st.rule})
	}
	clear(j.uas[len(kept):])
	j.uas = kept
	j.bots = len(kept)
	j.uaIDs = make(map[string]int32)
	if j.sig != nil {
		clear(j.sig.agents)
	}
	j.absentUA = -1
	j.uaBytes = 0
}

// newUAState identifies the bot behind ua and returns the index of its new
// state; logged tells a header from an absent one.
func (j *judge) newUAState(ua string, logged bool) int32 {
	return j.newUAStateOf(ua, j.identify(ua), logged)
}

// newUAStateOf returns the index of a new state of the header ua whose bot
// is bot: the one it names, or a signer's agent (agentState).
func (j *judge) newUAStateOf(ua string, bot bots.Bot, logged bool) int32 {
	st := &uaState{ua: strings.Clone(ua), id: -1}
	st.bot = bot
	if st.bot.IsBot { // only bot rows are stored, with their header
		st.botID = j.intern(st.bot.Name)
		st.verifiable = j.claims.ranges().Verifiable(st.bot.Name)
		st.rule, _ = j.rules.Crawler(st.bot.Name)
		if w, bit := int(st.botID)/64, uint64(1)<<(st.botID%64); w >= len(j.botSeen) || j.botSeen[w]&bit == 0 {
			// The table "bots" holds what the first User-Agent of a
			// name said of it.
			for w >= len(j.botSeen) {
				j.botSeen = append(j.botSeen, 0)
			}
			j.botSeen[w] |= bit
			j.botsOut.append(j.dict[st.botID], st.botID, st.bot, st.rule.UserTriggered)
		}
		st.prefRefusable = prefRefusable(st.bot.Purpose)
		st.graceUS = j.graceUS
		st.delayIgnoredUS = math.MaxInt64
		if o, ok := j.rules.Operator(st.bot.Operator); ok {
			if d, ok := o.GraceDuration(); ok && !j.graceForAll {
				st.graceUS = d.Microseconds()
			}
			if since, ok := o.CrawlDelayIgnored(); ok {
				st.delayIgnoredUS = math.MinInt64
				if !since.IsZero() {
					st.delayIgnoredUS = since.UnixMicro()
				}
			}
		}
		if logged {
			st.id = j.internBounded(st.ua)
			st.inline = st.id < 0
		}
	}
	j.uas = append(j.uas, st)
	return int32(len(j.uas) - 1)
}

// identify returns the bot behind the header ua: the one a human filter
// identified (see botHandoff), or the Identifier's answer.
func (j *judge) identify(ua string) bots.Bot {
	if j.handoff != nil {
		if b, ok := j.handoff.take(ua); ok {
			return b
		}
	}
	return j.ident.Identify(ua)
}

// hostState returns the index of the state of a logged host value ("" when
// the line carries none). host may alias a batch's memory.
func (j *judge) hostState(host string) int32 {
	if id, ok := j.hostIDs[host]; ok {
		return id
	}
	s := strings.Clone(host)
	hs := hostState{name: history.NormalizeHost(s), hi: -1}
	if hi, ok := j.hist.Lookup(s); ok {
		hs.hi = hi
		hs.cursor = j.hist.Cursor(hi)
		if name := j.hist.HostName(hi); name != "" {
			hs.name = name
		}
	}
	hs.id = j.intern(hs.name)
	id := int32(len(j.hosts))
	j.hosts = append(j.hosts, hs)
	j.hostIDs[s] = id
	return id
}

// group returns the (version, group) state that applies to ua in version id.
func (j *judge) group(ua *uaState, id int) *groupState {
	// Most of a User-Agent's requests fall in the version of the one
	// before: a comparison, not a map lookup.
	if ua.lastGroup != nil && ua.lastVersion == id {
		return ua.lastGroup
	}
	if g, ok := ua.groups[id]; ok {
		ua.lastVersion, ua.lastGroup = id, g
		return g
	}
	// Several User-Agents share a group; their decisions are shared too.
	g := j.shared(id, groupOf(j.versions[id].robots, ua.ua, ua.bot, ua.rule, j.noGroup))
	if ua.groups == nil {
		ua.groups = make(map[int]*groupState, 1)
	}
	ua.groups[id] = g
	return g
}

// shared returns the groupState of (version id, grp), creating it once.
func (j *judge) shared(id int, grp *robots.Resolved) *groupState {
	key := groupKey{id, grp}
	if g, ok := j.groupStates[key]; ok {
		return g
	}
	g := &groupState{group: grp, byRule: make(map[int64]uint32), policyID: -1}
	g.policy = policy{version: j.versions[id].name, group: -1, visit: -1}
	if grp.Matched() {
		g.policy.group = j.intern(grp.Name())
	}
	if d, ok := grp.CrawlDelay(); ok {
		g.policy.crawlDelay, g.policy.hasDelay = d, true
	}
	if s, e, ok := grp.VisitTime(); ok {
		g.policy.visit = j.intern(fmt.Sprintf("%02d%02d-%02d%02d", s/60, s%60, e/60, e%60))
	}
	for _, r := range grp.RequestRates() {
		g.rateWindowed = g.rateWindowed || r.HasWindow
	}
	if !g.rateWindowed {
		g.policyID = j.policyAt(g, 0)
	}
	j.groupStates[key] = g
	return g
}

// toStream tells j.stream of one request of a bot (see streamRow).
func (j *judge) toStream(uas *uaState, hs *hostState, identity verify.Identity, us int64, file int32, line int64, policy int32, fetch bool, breakRule int32, cd conductRow, addr int32) {
	if j.stream.off {
		return // it gave up: nothing to work out for it
	}
	if !hs.changesKnown {
		hs.changes, hs.changesKnown = j.stream.changes.of(hs.name), true
	}
	if uas.contact == 0 {
		uas.contact = 1
		if measure.HasContact(uas.ua) {
			uas.contact = 2
		}
	}
	r := &j.streamRow
	*r = streamRow{bot: uas.botID, host: hs.id, identity: uint8(identity), us: us, file: file, line: line,
		policy: policy, may: j.mayLimit(uas, hs.hi), ua: uas, fetch: fetch, breakRule: breakRule, changes: hs.changes,
		conduct: cd, contact: uas.contact == 2, addr: addr}
	j.stream.add(r)
}

// mayLimit reports whether some robots.txt version of the history host hi
// gives ua's group a Crawl-delay or a Request-rate: only then can its
// requests to that host have a window to measure (streamKeys). It
// resolves the groups without making their states, which would add
// policies no request has.
func (j *judge) mayLimit(ua *uaState, hi int) bool {
	if hi < 0 {
		return false
	}
	if ua.lastLimitHost == hi+1 {
		return ua.lastLimit
	}
	if may, ok := ua.limits[hi]; ok {
		ua.lastLimitHost, ua.lastLimit = hi+1, may
		return may
	}
	// The map only for a User-Agent met on a second host: most meet one,
	// and a log of millions of them should not make a map for each.
	if ua.lastLimitHost != 0 && ua.limits == nil {
		ua.limits = map[int]bool{ua.lastLimitHost - 1: ua.lastLimit}
	}
	may := false
	first, end := j.hist.VersionIDs(hi)
	for id := first; id < end && !may; id++ {
		var grp *robots.Resolved
		if g, ok := ua.groups[id]; ok {
			grp = g.group
		} else {
			grp = groupOf(j.versions[id].robots, ua.ua, ua.bot, ua.rule, j.noGroup)
		}
		_, delay := grp.CrawlDelay()
		may = delay || len(grp.RequestRates()) > 0
	}
	if ua.limits != nil {
		ua.limits[hi] = may
	}
	ua.lastLimitHost, ua.lastLimit = hi+1, may
	return may
}

// policyAt returns the policy id of g at the Unix second sec (which matters
// only for a Request-rate with a time window).
func (j *judge) policyAt(g *groupState, sec int64) int32 {
	p := g.policy
	if n, s, ok := g.group.RequestRate(sec); ok {
		p.rateN, p.rateS, p.hasRate = int32(n), int32(s), true
	}
	// The policy of the group's request before, most often the same: a
	// comparison, not the map's hash of the struct.
	if g.lastPolicy > 0 && j.policies[g.lastPolicy-1] == p {
		return g.lastPolicy - 1
	}
	id, ok := j.policyIDs[p]
	if !ok {
		id = int32(len(j.policies))
		j.policies = append(j.policies, p)
		j.policyIDs[p] = id
	}
	g.lastPolicy = id + 1
	return id
}

// delayIgnored returns the id of policy pid for a crawler whose operator
// says it ignores Crawl-delay: its short gaps are crawl_delay_unsupported.
func (j *judge) delayIgnored(pid int32) int32 {
	if int(pid) < len(j.ignoredOf) && j.ignoredOf[pid] > 0 {
		return j.ignoredOf[pid] - 1
	}
	p := j.policies[pid]
	p.delayIgnored = true
	id, ok := j.policyIDs[p]
	if !ok {
		id = int32(len(j.policies))
		j.policies = append(j.policies, p)
		j.policyIDs[p] = id
	}
	for int(pid) >= len(j.ignoredOf) {
		j.ignoredOf = append(j.ignoredOf, 0)
	}
	j.ignoredOf[pid] = id + 1
	return id
}

// decisionID returns the decision id of v.
func (j *judge) decisionID(v verdictRule) int32 {
	if id, ok := j.decisionIDs[v]; ok {
		return id
	}
	id := int32(len(j.decisions))
	j.decisions = append(j.decisions, v)
	j.decisionIDs[v] = id
	return id
}

type groupKey struct {
	version int
	group   *robots.Resolved
}

// decide returns the decision of g on target, whose dict id is tid, from the
// cache when it can. target may alias a batch's memory. The cache is keyed
// by the id: one string lookup per request (the id, which the row needs
// anyway) serves every group, and the groups' caches hold no strings. A
// target not interned (tid -1) is matched every time.
func (j *judge) decide(g *groupState, target string, tid int32) decision {
	if tid >= 0 {
		if k, ok := g.decided.find(tid); ok {
			return j.decisionList[k]
		}
	}
	var dec robots.Decision
	dec, j.scratch = g.group.DecideString(target, j.scratch)
	refused := j.decidePrefs(g, target, dec.Allowed)
	rk := ruleKey(dec) | int64(refused)<<prefKeyShift
	k, ok := g.byRule[rk]
	if !ok {
		k = uint32(len(j.decisionList))
		d := j.newDecision(dec)
		d.refused = refused
		j.decisionList = append(j.decisionList, d)
		g.byRule[rk] = k
	}
	if tid >= 0 {
		if j.decisionsCached >= maxDecisions {
			for _, gs := range j.groupStates {
				gs.decided.clear()
			}
			j.decisionsCached = 0
		}
		g.decided.put(tid, k)
		j.decisionsCached++
	}
	return j.decisionList[k]
}

// ruleKey identifies the rule that decided dec within its group: its line,
// and the verdict (a path no rule decides has line 0).
func ruleKey(dec robots.Decision) int64 {
	k := int64(dec.Line) << 1
	if dec.Allowed {
		k |= 1
	}
	return k
}

// newDecision returns the decision the matcher's dec stands for, its
// verdicts and rule interned.
func (j *judge) newDecision(dec robots.Decision) decision {
	d := decision{allowed: dec.Allowed, graceID: -1, userID: -1}
	vr := verdictRule{verdict: j.verdict[vAllowed], rule: -1}
	if dec.Line > 0 {
		vr.rule, vr.line = j.intern(dec.Rule), int32(dec.Line)
	}
	if !dec.Allowed {
		vr.verdict = j.verdict[vDisallowed]
		grace := vr
		grace.verdict = j.verdict[vInGrace]
		d.graceID = j.decisionID(grace)
		user := vr
		user.verdict = j.verdict[vUserTriggered]
		d.userID = j.decisionID(user)
	}
	d.id = j.decisionID(vr)
	return d
}

// isRobotsFetch reports whether target asks for /robots.txt (with or without
// a query).
func isRobotsFetch(target string) bool {
	if i := strings.IndexByte(target, '?'); i >= 0 {
		target = target[:i]
	}
	return target == "/robots.txt"
}

// dictIndex maps the entries of one batch's dictionary column to judge
// state, computing each the first time a row uses it.
type dictIndex []int32

func newDictIndex(n int) dictIndex {
	d := make(dictIndex, n)
	for i := range d {
		d[i] = -1
	}
	return d
}

// add judges one ingest batch.
func (j *judge) add(rec arrow.RecordBatch) error {
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	var (
		tsCol     = rec.Column(ingest.ColTime).(*array.Timestamp)
		hostCol   = rec.Column(ingest.ColHost).(*array.Dictionary)
		ipCol     = rec.Column(ingest.ColClientIP).(*array.String)
		methodCol = rec.Column(ingest.ColMethod).(*array.Dictionary)
		targetCol = rec.Column(ingest.ColTarget).(*array.String)
		statusCol = rec.Column(ingest.ColStatus).(*array.Int32)
		bytesCol  = rec.Column(ingest.ColBytes).(*array.Int64)
		uaCol     = rec.Column(ingest.ColUserAgent).(*array.Dictionary)
		fileCol   = rec.Column(ingest.ColFile).(*array.Dictionary)
		lineCol   = rec.Column(ingest.ColLine).(*array.Int64)
	)
	var retryCol *array.String
	if int(rec.NumCols()) > ingest.ColRetryAfter {
		retryCol = rec.Column(ingest.ColRetryAfter).(*array.String)
	}
	// The forwarded chain is read only behind trusted proxies: without
	// --trusted-proxy anyone can write it.
	var fwdCol *array.String
	if len(j.trusted) > 0 && int(rec.NumCols()) > ingest.ColForwardedFor {
		fwdCol = rec.Column(ingest.ColForwardedFor).(*array.String)
	}
	// The Web Bot Auth headers: read only in a batch that has them.
	sigCols, anySigned := sigColumnsOf(rec)
	if anySigned && j.sig == nil {
		return errSignedUnsupported
	}
	// The index arrays of the dictionary columns, read directly: ingest
	// writes them as int32 (ingest.Schema).
	uaIdx := indices(uaCol)
	hostIdx := indices(hostCol)
	methodIdx := indices(methodCol)
	fileIdx := indices(fileCol)
	hostDict := hostCol.Dictionary().(*array.String)
	uaDict := uaCol.Dictionary().(*array.String)
	methodDict := methodCol.Dictionary().(*array.String)
	fileDict := fileCol.Dictionary().(*array.String)

	// Per dictionary entry of this batch: the judge's UA and host states,
	// and the dict ids of methods and files.
	uaOf := newDictIndex(uaDict.Len())
	hostOf := newDictIndex(hostDict.Len())
	methodOf := newDictIndex(methodDict.Len())
	fileOf := newDictIndex(fileDict.Len())
	noHost := j.hostState("")
	noUA := int32(-1)
	j.resetUAs()

	c := &j.outCols
	// Room for every row of the batch, so that the appends below need no
	// capacity checks.
	if j.lean == nil {
		for _, b := range j.out.Fields() {
			b.Reserve(n)
		}
	}
	for i := 0; i < n; i++ {
		us := int64(tsCol.Value(i))
		if us < j.fromUS || us > j.toUS {
			j.outside++
			continue
		}
		var ua int32
		if uaCol.IsNull(i) {
			if noUA < 0 {
				noUA = j.uaState("", true)
			}
			ua = noUA
		} else {
			k := int(uaIdx[i])
			if uaOf[k] < 0 {
				uaOf[k] = j.uaState(uaDict.Value(k), false)
			}
			ua = uaOf[k]
		}
		host := noHost
		if !hostCol.IsNull(i) {
			k := int(hostIdx[i])
			if hostOf[k] < 0 {
				hostOf[k] = j.hostState(hostDict.Value(k))
			}
			host = hostOf[k]
		}
		hs := &j.hosts[host]
		uas := j.uas[ua]
		var (
			sigRes webbotauth.Result
			signed = anySigned && sigCols.signed(i)
			ipID   = int32(-1)
			ip     string
			ipDone bool
		)
		if signed {
			ipID, ip, ipDone = j.clientOf(ipCol, fwdCol, i), j.lastIP, true
			var err error
			sigRes, err = j.sig.verify(&sigCols, i, us, dictValue(hostCol, hostIdx, hostDict, i), dictValue(methodCol, methodIdx, methodDict, i), strOr(targetCol, i), ip)
			if err != nil {
				return err
			}
			if !uas.bot.IsBot && sigRes.Status == webbotauth.StatusValid {
				// A browser's header with a valid signature: the signer's
				// agent made the request.
				if a := j.agentState(uas.ua, sigRes); a >= 0 {
					ua, uas = a, j.uas[a]
				}
			}
			bot := ""
			if uas.bot.IsBot {
				bot = uas.bot.Name
			}
			j.sig.count(sigRes, bot)
		}
		if !uas.bot.IsBot {
			hs.humans++
			if signed && j.collectClients && ip != "" {
				// The human filter let it through for its signature.
				if a, err := netip.ParseAddr(ip); err == nil {
					if j.clients == nil {
						j.clients = make(map[netip.Addr]struct{})
					}
					j.clients[a.Unmap()] = struct{}{}
				}
			}
			continue
		}
		hs.bots++
		j.botRows++
		if us%1_000_000 != 0 {
			j.wholeSeconds = false
		}
		target := targetCol.Value(i)
		tid := j.internBounded(target)

		verdict := vUnaudited
		var (
			g   *groupState
			dec decision
			id  = -1
		)
		if hs.hi >= 0 {
			if v, ok := hs.cursor.At(us); ok {
				id = v
			}
		}
		if id >= 0 {
			g = j.group(uas, id)
			dec = j.decide(g, target, tid)
			verdict = vAllowed
			switch {
			case us >= j.unsureFrom[id]:
				verdict, dec = j.judgeUncertain(uas, hs.hi, id, us, dec, target, tid)
			case dec.allowed:
			case uas.rule.UserTriggered:
				verdict = vUserTriggered
			default:
				verdict = vDisallowed
				if uas.graceUS > 0 && j.cachedAllows(uas, hs.hi, id, us-uas.graceUS, target, tid) {
					verdict = vInGrace
				}
			}
		} else {
			j.unaudited++
		}

		if !ipDone {
			ipID, ip = j.clientOf(ipCol, fwdCol, i), j.lastIP
		}
		var (
			claimID  int32
			identity verify.Identity
		)
		if signed {
			claimID, identity = j.claims.signedOf(j.sig, uas, ip, us, sigRes)
		} else {
			claimID, identity = j.claims.of(uas, ipID, ip, us)
		}
		// A lean audit counts the request (leanCounts) instead of building
		// its row: nothing reads the row itself.
		lean := j.lean != nil
		if !lean {
			c.claim.UnsafeAppend(claimID)
			c.ts.UnsafeAppend(arrow.Timestamp(us))
			c.host.UnsafeAppend(hs.id)
			if ipID < 0 {
				c.clientIP.UnsafeAppendBoolToBitmap(false)
				if ipCol.IsNull(i) {
					c.ipStr.appendNull()
				} else {
					c.ipStr.append(ip)
					j.inlineBytes += len(ip)
				}
			} else {
				c.clientIP.UnsafeAppend(ipID)
				c.ipStr.appendNull()
			}
		}
		methodID := int32(-1)
		if !methodCol.IsNull(i) {
			k := int(methodIdx[i])
			if methodOf[k] < 0 {
				methodOf[k] = j.intern(methodDict.Value(k))
			}
			methodID = methodOf[k]
		}
		if !lean {
			if methodID < 0 {
				c.method.UnsafeAppendBoolToBitmap(false)
			} else {
				c.method.UnsafeAppend(methodID)
			}
			switch {
			case targetCol.IsNull(i):
				c.target.UnsafeAppendBoolToBitmap(false)
				c.targetStr.appendNull()
			case tid < 0:
				c.target.UnsafeAppendBoolToBitmap(false)
				c.targetStr.append(target)
				j.inlineBytes += len(target)
			default:
				c.target.UnsafeAppend(tid)
				c.targetStr.appendNull()
			}
			if statusCol.IsNull(i) {
				c.status.UnsafeAppendBoolToBitmap(false)
			} else {
				c.status.UnsafeAppend(statusCol.Value(i))
			}
			if bytesCol.IsNull(i) {
				c.bytes.UnsafeAppendBoolToBitmap(false)
			} else {
				c.bytes.UnsafeAppend(bytesCol.Value(i))
			}
			if uas.id < 0 {
				c.ua.UnsafeAppendBoolToBitmap(false)
				if uas.inline {
					c.uaStr.append(uas.ua)
					j.inlineBytes += len(uas.ua)
				} else {
					c.uaStr.appendNull()
				}
			} else {
				c.ua.UnsafeAppend(uas.id)
				c.uaStr.appendNull()
			}
			c.bot.UnsafeAppend(uas.botID)
		}
		k := int(fileIdx[i])
		if fileOf[k] < 0 {
			fileOf[k] = j.intern(fileDict.Value(k))
		}
		line := lineCol.Value(i)
		if !lean {
			c.file.UnsafeAppend(fileOf[k])
			c.line.UnsafeAppend(line)
		}
		cd := conductRow{url: urlKey(tid, target), status: -1, waitS: -1}
		if !statusCol.IsNull(i) {
			cd.status = statusCode(statusCol.Value(i))
		}
		if retryCol != nil && retryCol.IsValid(i) {
			cd.waitS = measure.StatusWait(retryCol.Value(i), true, us)
		}
		fetch := isRobotsFetch(target)
		if !lean {
			if cd.waitS < 0 {
				c.retryAfter.UnsafeAppendBoolToBitmap(false)
			} else {
				c.retryAfter.UnsafeAppend(cd.waitS)
			}
			c.robotsFetch.UnsafeAppend(fetch)
		}
		if fetch && hs.hi >= 0 && identity != verify.Spoofed {
			j.noteRobotsSize(uas, hs, us, i, methodCol, methodIdx, statusCol, bytesCol)
		}
		if fetch && !statusCol.IsNull(i) {
			if st := statusCol.Value(i); st >= 400 && st <= 599 {
				j.robotsFailed = true
			}
		}
		// The block list of a lean audit counts per client address
		// (leanBlocks); -1: not wanted.
		addr := int32(-1)
		if lean && j.lean.blocks != nil {
			addr = j.lean.blocks.addr(j.lean, ipID, ip, ipID < 0 && ipCol.IsNull(i))
		}
		var lq *leanRequest
		if lean {
			lq = &j.leanReq
			*lq = leanRequest{key: leanKey{bot: uas.botID, host: hs.id, claim: claimID, ip: ipID, fetch: fetch},
				us: us, status: -1, other: methodID >= 0 && !j.plainMethod(methodID)}
			if ipID < 0 && !ipCol.IsNull(i) {
				lq.inline, lq.inlineIP = true, ip
			}
			if !statusCol.IsNull(i) {
				lq.status = statusCol.Value(i)
			}
			if !bytesCol.IsNull(i) {
				lq.bytes = bytesCol.Value(i)
			}
		}
		if g == nil {
			if lean {
				lq.key.verdict = j.decisions[j.unauditedDecision].verdict
				j.lean.count(lq, &uas.leanMemo)
			} else {
				c.decision.UnsafeAppend(j.unauditedDecision)
				c.policy.UnsafeAppendBoolToBitmap(false)
				c.visitBreach.UnsafeAppend(false)
				c.prefExposed.UnsafeAppend(false)
			}
			if j.stream != nil {
				j.toStream(uas, hs, identity, us, fileOf[k], line, -1, fetch, -1, cd, addr)
				j.stream.avail.add(j.botRows-1, hs.id, uas.botID, identity, us, fileOf[k], line, fetch, statusCol.Value(i), !statusCol.IsNull(i), claimID, vUnaudited, addr, -1)
			}
			continue
		}
		did := dec.id
		switch verdict {
		case vInGrace:
			did = dec.graceID
		case vUserTriggered:
			did = dec.userID
		}
		pid := g.policyID
		if g.rateWindowed {
			pid = j.policyAt(g, floorDiv(us, 1_000_000))
		}
		if g.policy.hasDelay && us >= uas.delayIgnoredUS {
			pid = j.delayIgnored(pid)
		}
		if !lean {
			c.decision.UnsafeAppend(did)
			c.policy.UnsafeAppend(pid)
		}
		if j.stream != nil {
			breakRule := int32(-1)
			if verdict == vDisallowed || verdict == vInGrace {
				breakRule = j.decisions[did].rule
			}
			// A verified claim's disallowed request: the block list names
			// the rule it broke when its address is held back.
			held := int32(-1)
			if addr != -1 && verdict == vDisallowed && identity == verify.Verified {
				group, rule := j.policies[pid].group, j.decisions[did].rule
				for _, id := range [...]int32{group, rule} {
					if id >= 0 {
						j.lean.name(id)
					}
				}
				held = j.lean.blocks.heldOf(leanHeldKey{addr: addr, bot: uas.botID, group: group, decision: did})
			}
			j.toStream(uas, hs, identity, us, fileOf[k], line, pid, fetch, breakRule, cd, addr)
			j.stream.avail.add(j.botRows-1, hs.id, uas.botID, identity, us, fileOf[k], line, fetch, statusCol.Value(i), !statusCol.IsNull(i), claimID, uint8(verdict), addr, held)
		}
		visit := g.policy.visit >= 0 && !g.group.InVisitTime(floorDiv(us, 1_000_000))
		// A /robots.txt fetch is how a crawler learns the preference:
		// never exposure.
		exposed := verdict == vAllowed && !fetch && dec.refused&uas.prefRefusable != 0
		if lean {
			lq.key.verdict, lq.key.visit, lq.exposed = j.decisions[did].verdict, visit, exposed
			j.lean.count(lq, &uas.leanMemo)
		} else {
			c.visitBreach.UnsafeAppend(visit)
			c.prefExposed.UnsafeAppend(exposed)
		}
	}
	j.rows += int64(n)
	if j.handoff != nil {
		j.handoff.trim()
	}
	return nil
}

// clientOf returns the dict id of the client address of row i (-1: none,
// or not interned), its canonical form left in j.lastIP ("" for none).
func (j *judge) clientOf(ipCol, fwdCol *array.String, i int) int32 {
	id, ip := int32(-1), ""
	if !ipCol.IsNull(i) {
		if fwdCol != nil && !fwdCol.IsNull(i) {
			id, ip = j.forwardedID(ipCol.Value(i), fwdCol.Value(i))
		} else {
			id, ip = j.ipID(ipCol.Value(i))
		}
	}
	j.lastIP = ip
	return id
}

// dictValue returns the value of row i of a dictionary column ("" when
// null), given its indices and its dictionary.
func dictValue(col *array.Dictionary, idx []int32, dict *array.String, i int) string {
	if col.IsNull(i) {
		return ""
	}
	return dict.Value(int(idx[i]))
}

// ipID returns the dict id and the canonical form of a client address as
// logged, or -1 and the canonical form when it is not interned (see
// internBounded). ip may alias a batch's memory; the canonical form too.
func (j *judge) ipID(ip string) (int32, string) {
	if id, ok := j.ipIDs[ip]; ok {
		return id, j.dict[id]
	}
	c := canonicalIP(ip)
	id := j.internBounded(c)
	if id < 0 {
		return -1, c
	}
	if len(ip) <= maxCacheKey {
		if len(j.ipIDs) >= maxAddrCache {
			clear(j.ipIDs)
		}
		j.ipIDs[strings.Clone(ip)] = id
	}
	return id, j.dict[id]
}

// forwardedID is ipID for the client address of a request from remote with
// the forwarded chain fwd, behind the trusted proxies (see
// clientBehindProxies). Both may alias a batch's memory.
func (j *judge) forwardedID(remote, fwd string) (int32, string) {
	key := remote + "\x00" + fwd
	if id, ok := j.fwdIDs[key]; ok {
		return id, j.dict[id]
	}
	var (
		id int32
		c  string
	)
	if client, ok := clientBehindProxies(remote, fwd, j.trusted); ok {
		c = canonicalIP(client)
		id = j.internBounded(c)
	} else {
		id, c = j.ipID(remote)
	}
	if id < 0 {
		return -1, c
	}
	if len(key) <= maxCacheKey {
		if j.fwdIDs == nil || len(j.fwdIDs) >= maxAddrCache {
			j.fwdIDs = make(map[string]int32)
		}
		j.fwdIDs[key] = id
	}
	return id, j.dict[id]
}

// canonicalIP returns an IP address in its canonical form, so that one
// address logged in two spellings ("2001:DB8:0:0:0:0:0:2", "2001:db8::2",
// "::ffff:192.0.2.7") counts once in ips and in the block list. Anything
// that is not an address (a host name logged by HostnameLookups) is kept as
// logged. Dotted IPv4 without leading zeros, the common case, is returned
// without parsing.
func canonicalIP(s string) string {
	if plainIPv4(s) {
		return s
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return s
	}
	a = a.Unmap()
	if c := a.String(); c != s {
		return c
	}
	return s
}

// plainIPv4 reports whether s is four dotted decimal octets without leading
// zeros, which is already canonical (or, above 255, not an address at all).
func plainIPv4(s string) bool {
	dots, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if digits == 1 && s[i-1] == '0' {
				return false
			}
			digits++
		case c == '.' && digits > 0:
			dots++
			digits = 0
		default:
			return false
		}
	}
	return dots == 3 && digits > 0
}

// indices returns the int32 indices of a dictionary column, one per row.
func indices(d *array.Dictionary) []int32 {
	return d.Indices().(*array.Int32).Int32Values()
}

// floorDiv divides rounding toward negative infinity, so that instants
// before 1970 fall in the right second.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
