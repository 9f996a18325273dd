package audit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/crawlaudit/crawlaudit/verify"
	"github.com/crawlaudit/crawlaudit/verify/rdns"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// A claim is what one or more requests claim: a bot (by its User-Agent),
// from one client address, while the same range lists were in effect for
// that bot. Verification (package verify) is done once per claim, never per
// row; every stored request carries the id of its claim, and the table
// "claims" holds the identity and the evidence of each.
type claim struct {
	bot  string     // the bot's name
	addr netip.Addr // the client address; invalid when the line had none
	// check is what the ranges, then reverse DNS, say.
	check verify.Check
	// rows, first and last: the claim's requests and the instants of its
	// earliest and latest one (Unix µs), for the age of DNS evidence.
	rows        int64
	first, last int64
	// sigStatus, signer and sigKey: the outcome of the requests'
	// Web Bot Auth signature, its signer and key (StatusUnsigned: none).
	sigStatus      webbotauth.Status
	signer, sigKey string
}

// addrClaim is the claim of one (bot, address) pair over the instants
// [from, until) for which the range lists give the same answer.
type addrClaim struct {
	from, until int64
	id          int32
}

// claims is the judge's part that verifies who made each bot request.
type claims struct {
	// pending delivers the range lists once (the built-in snapshot decodes
	// while the logs begin to flow); ranges() waits for it on first use.
	pending <-chan rangesResult
	r       *verify.Ranges
	err     error
	// list holds the claims from id base on. With spill, the claims
	// before base were handed to DuckDB (spilled) and are forgotten:
	// memory does not grow with the distinct (bot, address) pairs and
	// bot names of the logs, which an attacker can invent by the million.
	list []claim
	base int32
	// spill: the judge hands its claims to DuckDB while it judges, once
	// maxClaims are held (see full and takeBatch). Without it (an audit
	// with reverse DNS, which settles claims only at the end, and
	// PartialAuditor) every claim stays in list and base is 0.
	spill bool
	// handed counts the requests of the claims handed over, per identity.
	handed map[verify.Identity]int64
	// byAddr caches, per (bot dict id, client address dict id), the claim
	// of the current list period: one map probe per bot request. byText
	// does for the addresses not interned (keyed by the bot's dict id
	// and the address). Both are emptied when they reach maxAddrCache
	// entries, and when the claims are spilled: a claim met again is then
	// made again, under a new id.
	byAddr map[uint64]addrClaim
	byText map[string]addrClaim
	// byBot holds, by bot dict id, the one claim of a bot that no range
	// list or reverse DNS covers (nothing about its address can settle
	// it), with its identity: such a claim stays in force once spilled,
	// its requests then counted in handed. 8 bytes per dict entry, not a
	// claim per bot name and spill.
	byBot []botClaim
	// bySig caches the claims of signed requests (signedOf), emptied
	// like byAddr.
	bySig map[sigClaimKey]addrClaim
}

// botClaim is an entry of claims.byBot: the claim id plus one (0: none)
// and its identity.
type botClaim struct {
	idPlus1  int32
	identity verify.Identity
}

// rangesResult is the outcome of loading the range lists.
type rangesResult struct {
	ranges *verify.Ranges
	err    error
}

func newClaims(pending <-chan rangesResult) *claims {
	return &claims{pending: pending, byAddr: make(map[uint64]addrClaim), handed: make(map[verify.Identity]int64)}
}

// readyRanges returns a channel that delivers r at once.
func readyRanges(r *verify.Ranges) <-chan rangesResult {
	ch := make(chan rangesResult, 1)
	ch <- rangesResult{ranges: r}
	return ch
}

// ranges returns the range lists, waiting for them the first time. If they
// could not be loaded, every claim is unverified and rangesErr says why.
func (c *claims) ranges() *verify.Ranges {
	if c.r == nil {
		res := <-c.pending
		c.r, c.err = res.ranges, res.err
		if c.r == nil {
			c.r = verify.Empty()
		}
	}
	return c.r
}

// rangesErr returns the error that kept the range lists from loading.
func (c *claims) rangesErr() error {
	c.ranges()
	return c.err
}

// of returns the claim id of a request of the bot of ua at us from the
// client address whose dict id is ipID (-1: none, or not interned), whose
// canonical form is ip ("": none), and the claim's identity as the ranges
// say it (reverse DNS may change it at the end). ip may alias a batch's
// memory.
func (c *claims) of(ua *uaState, ipID int32, ip string, us int64) (int32, verify.Identity) {
	if !ua.verifiable {
		for int(ua.botID) >= len(c.byBot) {
			c.byBot = append(c.byBot, botClaim{})
		}
		bc := &c.byBot[ua.botID]
		if bc.idPlus1 == 0 {
			chk := c.ranges().Check(ua.bot.Name, netip.Addr{}, 0)
			bc.idPlus1 = c.add(claim{bot: ua.bot.Name, check: chk, first: math.MaxInt64, last: math.MinInt64}) + 1
			bc.identity = chk.Identity
		}
		if id := bc.idPlus1 - 1; id >= c.base {
			c.list[id-c.base].rows++
		} else {
			c.handed[bc.identity]++
		}
		return bc.idPlus1 - 1, bc.identity
	}
	key := uint64(uint32(ua.botID))<<32 | uint64(uint32(ipID))
	var (
		ac      addrClaim
		ok      bool
		textKey string
	)
	if ipID >= 0 || ip == "" {
		ac, ok = c.byAddr[key]
	} else {
		textKey = strconv.Itoa(int(ua.botID)) + "\x00" + ip
		if len(textKey) <= maxCacheKey {
			ac, ok = c.byText[textKey]
		}
	}
	if !ok || us < ac.from || us >= ac.until {
		var addr netip.Addr
		if ip != "" {
			if a, err := netip.ParseAddr(ip); err == nil {
				addr = a.Unmap()
			}
		}
		chk := c.ranges().Check(ua.bot.Name, addr, us)
		ac = addrClaim{from: chk.From, until: chk.Until}
		ac.id = c.add(claim{bot: ua.bot.Name, addr: addr, check: chk, first: us, last: us})
		switch {
		case textKey == "":
			if len(c.byAddr) >= maxAddrCache {
				clear(c.byAddr)
			}
			c.byAddr[key] = ac
		case len(textKey) <= maxCacheKey:
			if c.byText == nil || len(c.byText) >= maxAddrCache {
				c.byText = make(map[string]addrClaim)
			}
			c.byText[textKey] = ac
		}
	}
	cl := &c.list[ac.id-c.base]
	cl.rows++
	if us < cl.first {
		cl.first = us
	}
	if us > cl.last {
		cl.last = us
	}
	return ac.id, cl.check.Identity
}

func (c *claims) add(cl claim) int32 {
	c.list = append(c.list, cl)
	return c.base + int32(len(c.list)-1)
}

// full reports whether the claims held should be spilled (takeBatch).
func (c *claims) full() bool {
	return c.spill && len(c.list) >= maxClaims
}

// takeBatch returns the claims held as a record batch of ClaimsSchema (the
// caller releases it, and must store it: the claims are forgotten), and
// empties the caches that lead to them. Their requests are counted for
// identityCounts. Only a judge that spills calls it, between batches.
func (c *claims) takeBatch(mem memory.Allocator) arrow.RecordBatch {
	rec := c.batch(mem)
	for _, cl := range c.list {
		c.handed[cl.check.Identity] += cl.rows
	}
	c.base += int32(len(c.list))
	clear(c.list) // the strings of the claims go now, not at the next append
	c.list = c.list[:0]
	clear(c.byAddr)
	c.byText = nil
	c.bySig = nil
	return rec
}

// DNSOptions configures forward-confirmed reverse DNS (--rdns,
// --rdns-cache), as the operators that document their domains describe it.
type DNSOptions struct {
	// Live makes DNS queries (--rdns) for the addresses the ranges leave
	// unverified or spoofed and whose bot's operator documents its domains.
	Live bool
	// CachePath is --rdns-cache FILE: answers are read from it, and new
	// ones written back. Without Live only its answers are used, and no
	// query is made.
	CachePath string
	// Resolver makes the queries; nil: the system's name server.
	Resolver *rdns.Resolver
	// Progress, when not nil, is told of live lookups.
	Progress func(done, total int)
}

// DNSStats says what reverse DNS did in an audit.
type DNSStats struct {
	Live      bool   `json:"live"`
	Cache     string `json:"cache,omitempty"`
	Addresses int    `json:"addresses"`          // addresses that DNS could settle
	Answered  int    `json:"answered"`           // of them, with an answer (cached or live)
	Queried   int    `json:"queried"`            // of them, looked up live in this run
	Failed    int    `json:"failed"`             // answers that were failures (timeout, SERVFAIL)
	Changed   int    `json:"changed_identities"` // claims whose identity DNS changed
	// OverBudget counts the live lookups cut short by the run's DNS time
	// budget (--rdns-budget), among Failed.
	OverBudget int `json:"over_budget,omitempty"`
	// NotAsked counts the addresses a live lookup was to settle and that
	// the resolver, failing its check, was not asked about.
	NotAsked int `json:"not_asked,omitempty"`
	// Unvouched counts the cached answers without a name that no resolver
	// check vouched for, and that settled nothing (rdns.Answer.Unvouched).
	Unvouched int `json:"unvouched,omitempty"`
	// Resolver is what the check of the resolver found before any of its
	// answers was trusted (nil: the run needed no live query).
	Resolver *rdns.Health `json:"resolver,omitempty"`
}

// ResolverFailing reports whether the resolver failed its check, so that
// no answer of its settled anything: the reports then do not credit reverse
// DNS with the identities.
func (st DNSStats) ResolverFailing() bool { return st.Resolver != nil && !st.Resolver.OK() }

// Probes of the resolver check: up to maxLogProbes addresses of the logs
// that a published range list gives to a crawler whose operator documents
// reverse DNS, then well-known public addresses until there are minProbes.
// A handful of lookups, so the check costs next to nothing.
const (
	maxLogProbes = 4
	minProbes    = 3
)

// warning returns what the user must be told of reverse DNS, or "".
// budget is the run's DNS time budget.
func (st DNSStats) warning(budget time.Duration) string {
	h := st.Resolver
	if h == nil {
		return ""
	}
	if h.OK() {
		if st.OverBudget == 0 {
			return ""
		}
		return fmt.Sprintf("reverse DNS: %d of the %d addresses looked up had no answer within the DNS time budget of %v, so their requests are unverified; "+
			"raise --rdns-budget, or audit again with --rdns and the same --rdns-cache to ask only those", st.OverBudget, st.Queried, budget)
	}
	server := "the system's DNS server"
	if h.Server != "" {
		server = "the DNS server " + h.Server
	}
	return fmt.Sprintf("reverse DNS: %s failed its check (%s), so it was not asked about the %d addresses it was to settle: "+
		"they keep what the published ranges say; "+
		"give a working resolver with --rdns-server HOST:PORT, or audit without --rdns", server, h.Reason, st.NotAsked)
}

// probes returns the addresses to check the resolver with before its
// answers are trusted (see maxLogProbes): the logs' own range-verified
// crawler addresses first, because a resolver that cannot name those
// cannot name the crawlers it is asked about either, one source after the
// other so that one operator's DNS does not decide alone.
func (c *claims) probes() []rdns.Probe {
	type cand struct {
		addr  netip.Addr
		about string
	}
	bySource := map[string][]cand{}
	domains := map[netip.Addr][]string{}
	for i := range c.list {
		cl := &c.list[i]
		if cl.check.Identity != verify.Verified || cl.check.Source == "" || !cl.addr.IsValid() {
			continue
		}
		if _, ok := domains[cl.addr]; ok {
			continue
		}
		d := c.ranges().DNSDomains(cl.bot)
		if len(d) == 0 {
			continue
		}
		domains[cl.addr] = d
		bySource[cl.check.Source] = append(bySource[cl.check.Source],
			cand{cl.addr, cl.bot + ", in the " + cl.check.Source + " list"})
	}
	sources := make([]string, 0, len(bySource))
	for s, cs := range bySource {
		sources = append(sources, s)
		sort.Slice(cs, func(a, b int) bool { return cs[a].addr.Less(cs[b].addr) })
	}
	sort.Strings(sources)
	var out []rdns.Probe
	for round := 0; len(out) < maxLogProbes; round++ {
		added := false
		for _, s := range sources {
			if cs := bySource[s]; round < len(cs) && len(out) < maxLogProbes {
				out = append(out, rdns.Probe{Addr: cs[round].addr, Domains: domains[cs[round].addr], About: cs[round].about})
				added = true
			}
		}
		if !added {
			break
		}
	}
	for _, p := range rdns.WellKnown() {
		if len(out) >= minProbes {
			break
		}
		out = append(out, p)
	}
	return out
}

// applyDNS settles, with reverse DNS, the claims whose bot's operator
// documents its domains and that the ranges did not verify.
func (c *claims) applyDNS(ctx context.Context, opt DNSOptions) (DNSStats, error) {
	st := DNSStats{Live: opt.Live, Cache: opt.CachePath}
	if !opt.Live && opt.CachePath == "" {
		return st, nil
	}
	if c.base > 0 {
		return st, errors.New("reverse DNS asked of claims already handed to DuckDB (the judge must not spill them)")
	}
	cache, err := rdns.LoadCache(opt.CachePath)
	if err != nil {
		return st, err
	}
	seen := make(map[netip.Addr]bool)
	var addrs []netip.Addr
	for i := range c.list {
		cl := &c.list[i]
		if cl.check.DNS && cl.addr.IsValid() && !seen[cl.addr] {
			seen[cl.addr] = true
			addrs = append(addrs, cl.addr)
		}
	}
	sort.Slice(addrs, func(a, b int) bool { return addrs[a].Less(addrs[b]) })
	st.Addresses = len(addrs)
	if opt.Live {
		// Resolve looks up what the cache does not hold, and retries the
		// failures it holds.
		for _, a := range addrs {
			if ans, ok := cache.Get(a); !ok || !ans.Usable() {
				st.Queried++
			}
		}
	}
	resolver := opt.Resolver
	if resolver == nil {
		resolver = &rdns.Resolver{}
	}
	live := opt.Live
	if st.Queried > 0 {
		// A resolver that says NXDOMAIN for everything would refute every
		// address: it must first name addresses whose names are known.
		h := resolver.CheckHealth(ctx, c.probes())
		st.Resolver = &h
		if ctx.Err() != nil {
			return st, ctx.Err()
		}
		if !h.OK() {
			live, st.Queried, st.NotAsked = false, 0, st.Queried
		}
	}
	answers := rdns.Resolve(ctx, resolver, cache, addrs, live, opt.Progress)
	st.Answered = len(answers)
	for _, a := range answers {
		switch {
		case a.Unvouched():
			st.Unvouched++
		case !a.Usable():
			st.Failed++
			if live && a.Err == rdns.ErrBudget {
				st.OverBudget++
			}
		}
	}
	for i := range c.list {
		cl := &c.list[i]
		if !cl.check.DNS || !cl.addr.IsValid() {
			continue
		}
		ans, ok := answers[cl.addr]
		switch {
		case !ok && st.Resolver != nil && !st.Resolver.OK():
			cl.check.Evidence += "; reverse DNS not asked: the DNS server failed its check"
			continue
		case !ok:
			continue
		case ans.Unvouched():
			// Kept by a version without the resolver check: a resolver
			// that says NXDOMAIN to everything gives this very answer.
			cl.check.Evidence += "; the cached reverse DNS answer (no PTR name) comes from a DNS server that was never checked, so it is not used: audit with --rdns to ask again"
			continue
		}
		was := cl.check.Identity
		cl.check = verify.ApplyDNS(cl.check, ans, c.ranges().DNSDomains(cl.bot), cl.first, cl.last)
		if cl.check.Identity != was {
			st.Changed++
		}
	}
	if err := cache.Save(); err != nil {
		return st, fmt.Errorf("--rdns-cache %s: %w", opt.CachePath, err)
	}
	return st, ctx.Err()
}

// identityCounts returns the bot requests per identity, those of the
// claims handed over (takeBatch) included.
func (c *claims) identityCounts() map[string]int64 {
	m := map[string]int64{"verified": 0, "spoofed": 0, "unverified": 0}
	for id, n := range c.handed {
		m[id.String()] += n
	}
	for _, cl := range c.list {
		m[cl.check.Identity.String()] += cl.rows
	}
	return m
}

// ClaimsSchema is the schema of the table "claims".
var ClaimsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32},
	{Name: "identity_code", Type: arrow.PrimitiveTypes.Uint8},
	{Name: "evidence", Type: arrow.BinaryTypes.String},
	// The Web Bot Auth signature of the claim's requests: its outcome
	// (signature_status), signer and key; NULL when unsigned.
	{Name: "signature_status", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "signer", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "signature_key", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// batch returns the claims held (from id base on) as a record batch of
// ClaimsSchema (the caller releases it).
func (c *claims) batch(mem memory.Allocator) arrow.RecordBatch {
	b := array.NewRecordBuilder(mem, ClaimsSchema)
	defer b.Release()
	ids := b.Field(0).(*array.Int32Builder)
	codes := b.Field(1).(*array.Uint8Builder)
	evs := b.Field(2).(*array.StringBuilder)
	ids.Reserve(len(c.list))
	codes.Reserve(len(c.list))
	for i, cl := range c.list {
		ids.Append(c.base + int32(i))
		codes.Append(uint8(cl.check.Identity))
		evs.Append(strings.ToValidUTF8(cl.check.Evidence, "\uFFFD"))
		for f, v := range []string{string(cl.sigStatus), cl.signer, cl.sigKey} {
			sb := b.Field(3 + f).(*array.StringBuilder)
			if cl.sigStatus == webbotauth.StatusUnsigned {
				sb.AppendNull()
			} else {
				sb.Append(strings.ToValidUTF8(v, "\uFFFD"))
			}
		}
	}
	return b.NewRecordBatch()
}
