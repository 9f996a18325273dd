package audit

import (
	"net/netip"
	"strings"
	"sync"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
)

// maxFilterCache bounds the User-Agents a parsing goroutine remembers, and
// maxFilterCacheBytes their bytes; past either, and for a header longer
// than maxFilterKey, answers come from the Identifier's own (bounded) cache.
const (
	maxFilterCache      = 1 << 16
	maxFilterCacheBytes = 8 << 20
	maxFilterKey        = 1 << 10
)

// humanFilter keeps human traffic out of the batches: the ingest layer asks
// it about every parsed row (ingest.Options.RowFilter) and builds columns
// only for the rows it keeps, the requests of bots inside the audited
// period. What it drops it counts: humans per host as logged, and requests
// outside the period. Each parsing goroutine has a filter of its own; the
// judge adds their counts up when the logs are read.
type humanFilter struct {
	*humanFilters // identifier and period, shared

	isBot      map[string]bool // User-Agent → bot, this goroutine's cache
	isBotBytes int             // the bytes of its keys
	// The User-Agent of the row before and its answer: a client's
	// requests come in runs (59 % of the lines of the realistic month
	// have the User-Agent of the line before), and a comparison costs less
	// than a map lookup.
	lastUA          []byte
	lastBot, hasBot bool
	humans          map[string]int64
	outside         int64
	// The human requests of the host last seen, not yet in humans: most
	// logs hold one host, or none.
	lastHost   []byte
	lastHumans int64
	// clients are the addresses of human clients (only with collect).
	clients map[netip.Addr]struct{}
	lastIP  []byte
	// referrals counts the human requests an operator's product referred.
	referrals referralCounter
}

// humanFilters makes the filters of one run and remembers them for their
// counts.
type humanFilters struct {
	ident        *bots.Identifier
	fromUS, toUS int64
	// collect: remember the address of every human client (for the
	// aggregation of block lists), behind the trusted proxies.
	collect bool
	trusted []netip.Prefix
	// sig, when not nil, checks the signatures of signed rows ahead of
	// the judge (sigJudge.precheck).
	sig *sigJudge

	mu  sync.Mutex
	all []*humanFilter

	// handoff has the bots the filters identified, for the judge.
	handoff botHandoff
}

// botHandoff passes the judge the bots that the filters identified, so that
// a bot's User-Agent is identified once, not once by a filter and again by
// the judge (which costs as much again per distinct User-Agent of a log of
// invented bot names: 0.4 of 2.8 CPU seconds on 80,000 of them). A filter
// puts what it identified; the judge takes it when it meets the header in a
// batch, or identifies it itself when it is not there. Its memory is
// bounded: past maxHandoffBytes, put drops the entry and trim forgets all.
type botHandoff struct {
	mu    sync.Mutex
	m     map[string]bots.Bot
	bytes int
}

// maxHandoffBytes bounds the User-Agents and bots a botHandoff holds.
const maxHandoffBytes = 16 << 20

func handoffCost(ua string, b bots.Bot) int { return len(ua) + len(b.Name) + 128 }

// put records that the header ua is the bot b.
func (h *botHandoff) put(ua string, b bots.Bot) {
	cost := handoffCost(ua, b)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.bytes+cost > maxHandoffBytes {
		return
	}
	if _, ok := h.m[ua]; ok {
		return
	}
	if h.m == nil {
		h.m = make(map[string]bots.Bot)
	}
	h.m[strings.Clone(ua)] = b
	h.bytes += cost
}

// take returns and forgets the bot a filter identified behind ua.
func (h *botHandoff) take(ua string) (bots.Bot, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	b, ok := h.m[ua]
	if ok {
		delete(h.m, ua)
		h.bytes -= handoffCost(ua, b)
	}
	return b, ok
}

// trim forgets everything once the bound is reached: entries a filter put
// again after the judge took them (two filters may identify one header)
// would otherwise fill it for good. The judge then identifies what it
// does not find.
func (h *botHandoff) trim() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.bytes >= maxHandoffBytes*3/4 {
		clear(h.m)
		h.bytes = 0
	}
}

// newFilter returns the predicate of a new filter (ingest.Options.RowFilter).
func (fs *humanFilters) newFilter() func(*logfmt.Row) bool {
	f := &humanFilter{humanFilters: fs, isBot: map[string]bool{}, humans: map[string]int64{}}
	fs.mu.Lock()
	fs.all = append(fs.all, f)
	fs.mu.Unlock()
	return f.keep
}

// addTo adds the counts of every filter to j.
func (fs *humanFilters) addTo(j *judge) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.all {
		f.flushHost()
		j.outside += f.outside
		for host, n := range f.humans {
			j.hosts[j.hostState(string(ingest.RepairUTF8([]byte(host))))].humans += n
		}
		f.outside, f.humans = 0, map[string]int64{}
		f.referrals.addTo(j)
		if len(f.clients) > 0 {
			if j.clients == nil {
				j.clients = make(map[netip.Addr]struct{}, len(f.clients))
			}
			for a := range f.clients {
				j.clients[a] = struct{}{}
			}
			f.clients = nil
		}
	}
}

// keep reports whether r is a bot request inside the period.
func (f *humanFilter) keep(r *logfmt.Row) bool {
	if r.Time < f.fromUS || r.Time > f.toUS {
		f.outside++
		return false
	}
	if r.Referer != nil {
		f.referrals.refererSeen = true
	}
	if r.UserAgent == nil { // no header: a script (bots.NoUserAgent)
		return true
	}
	bot := f.lastBot
	if !f.hasBot || string(r.UserAgent) != string(f.lastUA) {
		var ok bool
		bot, ok = f.isBot[string(r.UserAgent)]
		if !ok {
			// The judge sees the header as the batch holds it, repaired.
			ua := string(ingest.RepairUTF8(r.UserAgent))
			b := f.ident.Identify(ua)
			if bot = b.IsBot; bot {
				f.handoff.put(ua, b)
			}
			if len(f.isBot) < maxFilterCache && f.isBotBytes < maxFilterCacheBytes && len(r.UserAgent) <= maxFilterKey {
				f.isBot[string(r.UserAgent)] = bot
				f.isBotBytes += len(r.UserAgent)
			}
		}
		f.hasBot = len(r.UserAgent) <= maxFilterKey
		if f.hasBot {
			f.lastUA = append(f.lastUA[:0], r.UserAgent...)
			f.lastBot = bot
		}
	}
	if f.sig != nil && r.SignatureInput != nil && r.Signature != nil {
		f.sig.precheck(r)
	}
	if !bot && (r.SignatureInput != nil || r.Signature != nil) {
		// A signed request may be an agent's behind a browser's header:
		// the judge verifies the signature, and counts it as a person's
		// when the signature does not name an agent.
		return true
	}
	if !bot {
		if f.collect && len(r.ClientIP) > 0 {
			f.addClient(r)
		}
		if f.lastHumans == 0 || string(r.Host) != string(f.lastHost) {
			f.flushHost()
			f.lastHost = append(f.lastHost[:0], r.Host...)
		}
		f.lastHumans++
		f.referrals.count(r)
	}
	return bot
}

// flushHost adds the human requests counted for lastHost to humans.
func (f *humanFilter) flushHost() {
	if f.lastHumans > 0 {
		f.humans[string(f.lastHost)] += f.lastHumans
		f.lastHumans = 0
	}
}

// addClient remembers the client address of the human request r: the
// remote address, or behind a trusted proxy the forwarded one.
func (f *humanFilter) addClient(r *logfmt.Row) {
	if r.ForwardedFor == nil && string(r.ClientIP) == string(f.lastIP) {
		return
	}
	ip := string(r.ClientIP)
	if r.ForwardedFor != nil && len(f.trusted) > 0 {
		ip, _ = clientBehindProxies(ip, string(r.ForwardedFor), f.trusted)
	} else {
		f.lastIP = append(f.lastIP[:0], r.ClientIP...)
	}
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return
	}
	if f.clients == nil {
		f.clients = make(map[netip.Addr]struct{})
	}
	f.clients[a.Unmap().WithZone("")] = struct{}{}
}
