package loggen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // the output must not depend on the machine's zoneinfo
)

// Config says what to generate.
type Config struct {
	// Seed selects the traffic; the same Config gives the same requests.
	Seed int64
	// Start and End bound the requests' times: Start <= t < End.
	Start, End time.Time
	// Lines is the exact number of requests.
	Lines int
	// Hosts are the virtual hosts served. Default: www.example.com.
	Hosts []string
	// Location is the time zone of the offsets written in the log.
	// Default: Europe/Berlin.
	Location *time.Location

	// The knobs below make traffic that costs an audit what a real site's
	// does. Each one's zero value keeps the default traffic, byte for byte.

	// Paths is about the number of distinct request targets (path and
	// query) of the log, split between hosts like Lines; it is at most
	// Lines. Each host's pages, products, images, documents, searches and
	// cart links become a catalogue whose entries are requested with a Zipf
	// law (ZipfExponent) within their section, the catalogue sized so that
	// the expected number of distinct targets among the planned requests is
	// Paths (measured within a few percent). 0: the default site, about
	// 11,700 distinct targets per million lines.
	Paths int
	// Agents is about the number of distinct User-Agent values of the log:
	// the crawlers' and scripts' own (31) and Agents minus those browser
	// ones (the 15 default ones, then more of the same families and other
	// versions, each used by one of the returning visitors). 0: the default
	// 15 browsers, about 46 in all.
	Agents int
	// BotShare is the fraction of requests made by crawlers and scripts, in
	// (0, 1): their volumes are scaled to it, and when crawlers that keep a
	// Crawl-delay or stop at a Disallow fall short, a second Googlebot
	// (smartphone) makes up the difference. 0: the default mix, about 40 %.
	BotShare float64
	// RobotsRules is the number of Allow and Disallow rules of the last
	// robots.txt version (see RobotsHistory). 0: the hand-written history,
	// HandWrittenRules in its last version.
	RobotsRules int

	// RobotsOutages are periods in which every host answers /robots.txt
	// with an error instead of the file (see Outage for what the crawlers
	// do then). They must not overlap; parts outside [Start, End) do
	// nothing. Default: none, the file is always served.
	RobotsOutages []Outage

	// AIReferrals is the fraction of browser sessions, in [0, 1), that land
	// from an AI assistant's answer (aiLandings: ChatGPT, Perplexity,
	// Claude, Copilot, Gemini), with the assistant's Referer or ChatGPT's
	// utm_source=chatgpt.com on the landing page. They are drawn from a
	// random stream of their own. 0: none, the default traffic byte for
	// byte.
	AIReferrals float64
}

// Outage is a period in which /robots.txt answers with an error status.
type Outage struct {
	// Start and End bound it: Start <= t < End.
	Start, End time.Time
	// Status is the HTTP status of every /robots.txt response in it: 500 to
	// 599 or 429 make the file unreachable, so a crawler that obeys
	// robots.txt must assume complete disallow (RFC 9309 §2.3.1.4); any
	// other 400 to 499 (404, 410) unavailable, so it may crawl anything
	// (§2.3.1.3).
	Status int
}

// Unreachable reports whether the outage's status makes robots.txt
// unreachable (5xx, 429) rather than unavailable (other 4xx).
func (o Outage) Unreachable() bool { return unreachable(o.Status) }

func unreachable(status int) bool { return status >= 500 || status == 429 }

// String returns the outage as ParseOutage reads it:
// "2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503".
func (o Outage) String() string {
	return o.Start.UTC().Format(time.RFC3339) + "/" + o.End.UTC().Format(time.RFC3339) + "=" + strconv.Itoa(o.Status)
}

// ParseOutage reads "START/END=STATUS", START and END in RFC 3339 (END
// exclusive), STATUS an HTTP status from 400 to 599:
// "2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503".
func ParseOutage(s string) (Outage, error) {
	var o Outage
	span, status, ok := strings.Cut(s, "=")
	from, to, ok2 := strings.Cut(span, "/")
	if !ok || !ok2 {
		return o, fmt.Errorf("cannot parse robots.txt outage %q: want START/END=STATUS (2026-10-22T06:00:00Z/2026-10-22T11:00:00Z=503)", s)
	}
	var err error
	if o.Start, err = time.Parse(time.RFC3339, from); err != nil {
		return o, fmt.Errorf("cannot parse the start of robots.txt outage %q: %w", s, err)
	}
	if o.End, err = time.Parse(time.RFC3339, to); err != nil {
		return o, fmt.Errorf("cannot parse the end of robots.txt outage %q: %w", s, err)
	}
	if o.Status, err = strconv.Atoi(status); err != nil {
		return o, fmt.Errorf("cannot parse the status of robots.txt outage %q: %w", s, err)
	}
	return o, checkOutage(o)
}

func checkOutage(o Outage) error {
	if o.Status < 400 || o.Status > 599 {
		return fmt.Errorf("robots.txt outage %s: status %d is not an error (want 400 to 599)", o, o.Status)
	}
	if !o.End.After(o.Start) {
		return fmt.Errorf("robots.txt outage %s: empty period", o)
	}
	return nil
}

// SampleOutages returns the robots.txt outages of SampleConfig: 503 for
// five hours from 2026-10-22T06:00:00Z, in which nine operators' crawlers
// fetch /robots.txt and retry, and 404 for a day from
// 2026-10-27T06:00:00Z, in which most do. Both are clear of the robots.txt
// version changes and their 24-hour grace.
func SampleOutages() []Outage {
	return []Outage{
		{Start: time.Date(2026, 10, 22, 6, 0, 0, 0, time.UTC), End: time.Date(2026, 10, 22, 11, 0, 0, 0, time.UTC), Status: 503},
		{Start: time.Date(2026, 10, 27, 6, 0, 0, 0, time.UTC), End: time.Date(2026, 10, 28, 6, 0, 0, 0, time.UTC), Status: 404},
	}
}

// RealisticConfig returns the configuration of a month that looks like a
// real site's traffic, the month the benchmarks are measured on: October 2026 on www.example.com, seed 1,
// with 104 distinct targets per 1,000 lines (about 104,000 per million),
// 271 distinct User-Agents, 30 % of requests by crawlers and scripts, and
// the hand-written robots.txt history (60 rules in its last version;
// Crawl-delay for five crawlers, Request-rate and Visit-time for others).
func RealisticConfig(lines int) Config {
	cfg := SampleConfig()
	cfg.Lines = lines
	cfg.Paths = int(int64(lines) * 104 / 1000)
	cfg.Agents = 271
	cfg.BotShare = 0.30
	cfg.RobotsRules = HandWrittenRules
	cfg.RobotsOutages = nil // the benchmark month keeps its bytes
	return cfg
}

// DefaultHost is the host used when Config.Hosts is empty.
const DefaultHost = "www.example.com"

// Request is one generated request. Byte-slice fields are valid until the
// emit function returns.
type Request struct {
	// Unix is the request time in seconds since the Unix epoch.
	Unix int64
	// Offset is the UTC offset of Config.Location at Unix, in seconds.
	Offset int32
	// Host is the virtual host.
	Host string
	// ClientIP is the client address, IPv4 or IPv6 in canonical form.
	ClientIP string
	// Method is the HTTP method.
	Method string
	// Target is the request target, path and query, as sent.
	Target []byte
	// Protocol is "HTTP/1.1" or "HTTP/2.0".
	Protocol string
	// Status is the HTTP status code.
	Status int
	// Bytes is the size of the response body.
	Bytes int64
	// Referer is the Referer header; empty when the request had none.
	Referer []byte
	// UserAgent is the User-Agent header.
	UserAgent string

	// Actor names who made the request: "browser", a crawler ("Googlebot
	// smartphone", "Googlebot (spoofed)") or a script ("curl").
	Actor string
	// Bot is the product name an audit should report for the request
	// (a token of its User-Agent read as a product name), "" for a browser.
	Bot string
	// Behavior is the actor's behaviour profile.
	Behavior Behavior
	// Operator is who runs the crawler, as bots names it ("Google"
	// for the three Googlebots, "ByteDance" for Bytespider); the bot for a
	// script; "" for a browser and an impostor. An operator's crawlers
	// share what /robots.txt answered them (see Outage).
	Operator string

	// SignatureAgent, SignatureInput and Signature are the Web Bot Auth
	// headers of a signed request (see Signing); empty when unsigned. Only
	// the jsonl writer writes them.
	SignatureAgent, SignatureInput, Signature string
}

// Time returns the request time in the log's time zone offset.
func (r *Request) Time() time.Time {
	return time.Unix(r.Unix, 0).In(time.FixedZone("", int(r.Offset)))
}

// SampleConfig returns the configuration of the demo data in
// testdata/sample: October 2026 for www.example.com, 50,000 lines, seed 1,
// the robots.txt outages of SampleOutages.
func SampleConfig() Config {
	return Config{
		Seed:          1,
		Start:         time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
		End:           time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		Lines:         50000,
		RobotsOutages: SampleOutages(),
	}
}

// botShare scales the weights of the crawler profiles (in percent): the
// rest of the lines are browsers.
const botShare = 0.8

// hostPlan is the generator's state for one host.
type hostPlan struct {
	host     string
	versions []RobotsVersion
	outages  []outage   // Config.RobotsOutages in time order
	cat      *catalogue // nil unless Config.Paths
}

// outage is an Outage in Unix seconds.
type outage struct {
	start, end int64
	status     int
}

// robotsAnswer returns the status of a /robots.txt fetch at t: an outage's
// (and the end of the outage), else 200, or 404 before the first version.
func (hp *hostPlan) robotsAnswer(t int64) (status int, until int64) {
	for _, o := range hp.outages {
		if o.start <= t && t < o.end {
			return o.status, o.end
		}
	}
	if versionAt(hp.versions, t) < 0 {
		return 404, 0
	}
	return 200, 0
}

// Sizes of the error pages a /robots.txt fetch gets.
const (
	missingPageBytes = 1520 // 4xx: the site's "not found" page
	errorPageBytes   = 397  // 5xx, 429: the server's error page
)

// actor is a source of requests: a crawler or script per host, or one
// browser session.
type actor struct {
	hp       *hostPlan
	prof     *botProfile // nil for browser sessions
	rng      *rand.Rand
	pick     sectionPick
	ips      []string
	curIP    string
	curUA    string
	fetchVer int // robots version fetched last (bots); -1 none
	groups   groupCache
	// browser sessions
	visitor *visitor
	landing []byte // referer of the first page
	// landingQuery is appended to the first page's target
	// ("utm_source=chatgpt.com"); "" for none.
	landingQuery string
	page         []byte // current page target
}

type visitor struct {
	ip, ua string
}

// Event flags.
const (
	flagFetch      = 1 << iota // a /robots.txt fetch
	flagBurstStart             // the first request of a burst (bots) or a page (browsers)
)

type event struct {
	t     int64
	actor int32
	seq   int32
	flags uint8
}

type generator struct {
	cfg     Config
	loc     *time.Location
	actors  []*actor
	events  []event
	moreUAs []string // browser User-Agents beyond browserUAs (Config.Agents)
}

// Generate generates the requests of cfg in time order and calls emit for
// each, stopping at the first error emit returns.
func Generate(cfg Config, emit func(*Request) error) error {
	g, err := newGenerator(cfg)
	if err != nil {
		return err
	}
	return g.render(emit)
}

func newGenerator(cfg Config) (*generator, error) {
	if cfg.Lines < 0 {
		return nil, fmt.Errorf("cannot generate %d lines", cfg.Lines)
	}
	if !cfg.End.After(cfg.Start) {
		return nil, fmt.Errorf("empty period: end %s is not after start %s", cfg.End.Format(time.RFC3339), cfg.Start.Format(time.RFC3339))
	}
	if cfg.End.Unix()-cfg.Start.Unix() < 3600 {
		return nil, errors.New("the period must be at least one hour long")
	}
	if len(cfg.Hosts) == 0 {
		cfg.Hosts = []string{DefaultHost}
	}
	for _, h := range cfg.Hosts {
		if h == "" || strings.ContainsAny(h, " \t\r\n\"/\\") {
			return nil, fmt.Errorf("invalid host name %q", h)
		}
	}
	if cfg.Paths < 0 || cfg.Paths > cfg.Lines {
		return nil, fmt.Errorf("cannot have %d distinct paths in %d lines", cfg.Paths, cfg.Lines)
	}
	if !(cfg.BotShare >= 0 && cfg.BotShare < 1) {
		return nil, fmt.Errorf("bot share %g is not in [0, 1)", cfg.BotShare)
	}
	if !(cfg.AIReferrals >= 0 && cfg.AIReferrals < 1) {
		return nil, fmt.Errorf("AI referral share %g is not in [0, 1)", cfg.AIReferrals)
	}
	if cfg.Agents != 0 && (cfg.Agents < MinAgents || cfg.Agents > MaxAgents) {
		return nil, fmt.Errorf("cannot have %d distinct User-Agents: want %d (the crawlers' and scripts' and one browser's) to %d", cfg.Agents, MinAgents, MaxAgents)
	}
	g := &generator{cfg: cfg, loc: cfg.Location}
	if cfg.Agents != 0 {
		n := cfg.Agents - len(botUserAgents()) - len(browserUAs)
		if n > 0 {
			more, err := moreBrowserUAs(n)
			if err != nil {
				return nil, err
			}
			g.moreUAs = more
		}
	}
	if g.loc == nil {
		loc, err := time.LoadLocation("Europe/Berlin")
		if err != nil {
			return nil, fmt.Errorf("cannot load time zone Europe/Berlin: %w", err)
		}
		g.loc = loc
	}
	sorted := slices.SortedFunc(slices.Values(cfg.RobotsOutages), func(a, b Outage) int { return a.Start.Compare(b.Start) })
	var outages []outage
	for i, o := range sorted {
		if err := checkOutage(o); err != nil {
			return nil, err
		}
		if i > 0 && o.Start.Before(sorted[i-1].End) {
			return nil, fmt.Errorf("robots.txt outages %s and %s overlap", sorted[i-1], o)
		}
		outages = append(outages, outage{start: o.Start.Unix(), end: o.End.Unix(), status: o.Status})
	}
	g.events = make([]event, 0, cfg.Lines)
	for hi, h := range cfg.Hosts {
		n := cfg.Lines / len(cfg.Hosts)
		if hi < cfg.Lines%len(cfg.Hosts) {
			n++
		}
		vs, err := RobotsHistory(h, cfg.RobotsRules)
		if err != nil {
			return nil, err
		}
		g.planHost(&hostPlan{host: h, versions: vs, outages: outages}, hi, n)
	}
	slices.SortFunc(g.events, func(a, b event) int {
		if a.t != b.t {
			return cmpInt(a.t, b.t)
		}
		if a.actor != b.actor {
			return cmpInt(a.actor, b.actor)
		}
		return cmpInt(a.seq, b.seq)
	})
	return g, nil
}

func cmpInt[T int32 | int64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newRand returns the random source of stream id of host hi.
func (g *generator) newRand(hi int, id uint64) *rand.Rand {
	return rand.New(g.newPCG(hi, id))
}

// newPCG returns the generator behind newRand(hi, id).
func (g *generator) newPCG(hi int, id uint64) *rand.PCG {
	return rand.NewPCG(uint64(g.cfg.Seed), uint64(hi)<<40|id)
}

func (g *generator) addActor(a *actor) int32 {
	g.actors = append(g.actors, a)
	return int32(len(g.actors) - 1)
}

// planHost plans n requests for one host: first its crawlers and scripts,
// then browser sessions for the rest.
func (g *generator) planHost(hp *hostPlan, hi, n int) {
	start, end := g.cfg.Start.Unix(), g.cfg.End.Unix()
	span := end - start
	profs := bots()
	from := len(g.events)
	share := botShare
	if g.cfg.BotShare > 0 {
		total := 0.0
		for _, p := range profs {
			total += p.weight
		}
		share = g.cfg.BotShare * 100 / total
	}
	used := 0
	// Without outages each crawler is planned on its own, as it comes. With
	// them, the crawlers of one operator share what robots.txt answered
	// (see planRobots): they are planned together once all are timed.
	joint := len(hp.outages) > 0
	var plans []*botPlan
	plan := func(bp *botPlan) int {
		if joint {
			plans = append(plans, bp)
			return len(bp.times)
		}
		return g.planRobots([]*botPlan{bp})
	}
	for pi := range profs {
		p := &profs[pi]
		budget := int(math.Round(float64(n) * p.weight * share / 100))
		if budget == 0 && n >= 1000 {
			budget = 1
		}
		if p.minGap > 0 {
			// Keep the crawl-delay-respecting crawlers within half the period.
			if lim := int(span / 2 / int64(p.minGap+1)); budget > lim {
				budget = lim
			}
		}
		if used+budget > n {
			budget = n - used
		}
		if budget <= 0 {
			continue
		}
		src := g.newPCG(hi, uint64(pi)+1)
		a := &actor{hp: hp, prof: p, rng: rand.New(src), pick: newSectionPick(p.interest), ips: p.ips, fetchVer: -1, groups: groupCache{}}
		id := g.addActor(a)
		bp := g.planTimes(a, id, budget, start, end)
		bp.src = src
		used += plan(bp)
	}
	if g.cfg.BotShare > 0 {
		have := used
		if joint {
			// A trial of the crawlers' robots.txt, to know what it leaves
			// of their requests.
			mark, states := len(g.events), saveRands(plans)
			for _, bp := range plans {
				have -= len(bp.times)
			}
			have += g.planRobots(plans)
			g.events = g.events[:mark]
			restoreRands(plans, states)
		}
		// Make up for the crawlers capped by their Crawl-delay or stopped by
		// a Disallow of everything or by robots.txt outages.
		if short := min(int(math.Round(float64(n)*g.cfg.BotShare)), n) - have; short > 0 {
			p := &profs[0] // Googlebot smartphone: polite, no Crawl-delay
			src := g.newPCG(hi, 1<<36)
			a := &actor{hp: hp, prof: p, rng: rand.New(src), pick: newSectionPick(p.interest), ips: p.ips, fetchVer: -1, groups: groupCache{}}
			bp := g.planTimes(a, g.addActor(a), short, start, end)
			bp.src = src
			used += plan(bp)
		}
	}
	if joint {
		// Each crawler renders its requests from the random state its
		// planning leaves without outages (planned alone, as then), so that
		// what it requests before the first outage is what it would have
		// requested without any.
		mark, states := len(g.events), saveRands(plans)
		outages := hp.outages
		hp.outages = nil
		for _, bp := range plans {
			g.planRobots([]*botPlan{bp})
		}
		hp.outages = outages
		g.events = g.events[:mark]
		rendering := saveRands(plans)
		restoreRands(plans, states)
		for _, bp := range plans {
			used -= len(bp.times)
		}
		used += g.planRobots(plans)
		restoreRands(plans, rendering)
	}
	g.planBrowsers(hp, hi, n-used, start, end)
	if g.cfg.Paths > 0 {
		want := g.cfg.Paths / len(g.cfg.Hosts)
		if hi < g.cfg.Paths%len(g.cfg.Hosts) {
			want++
		}
		hp.cat = g.newCatalogue(hi, from, want)
	}
}

// obeys reports whether the behaviour obeys Disallow.
func (b Behavior) obeys() bool {
	return b == Polite || b == BreachesCrawlDelay || b == BreachesRequestRate || b == BreachesVisitTime
}

// botPlan is a crawler's or script's requests before robots.txt has its
// say: their times, in order, and which of them start a burst.
type botPlan struct {
	a      *actor
	src    *rand.PCG // a.rng's generator, for planHost's trials
	id     int32
	times  []int64
	starts []bool
}

// planTimes plans the times of budget requests of a crawler or script.
func (g *generator) planTimes(a *actor, id int32, budget int, start, end int64) *botPlan {
	p, rng := a.prof, a.rng
	// Bursts: sizes and inner gaps.
	type burst struct{ size, inner int }
	var bursts []burst
	innerTotal := int64(0)
	var gaps []int64
	for left := budget; left > 0; {
		k := min(p.burstMin+rng.IntN(p.burstMax-p.burstMin+1), left)
		b := burst{size: k}
		for range k - 1 {
			gp := max(p.gapMin+rng.IntN(p.gapMax-p.gapMin+1), p.minGap)
			gaps = append(gaps, int64(gp))
			b.inner += gp
		}
		innerTotal += int64(b.inner)
		bursts = append(bursts, b)
		left -= k
	}
	// Spread the bursts over the period with exponential gaps of at least
	// minGap, scaled to fill it.
	ex := make([]float64, len(bursts)+1)
	sum := 0.0
	for i := range ex {
		ex[i] = rng.ExpFloat64()
		sum += ex[i]
	}
	slack := float64(end-start-innerTotal-int64(len(ex)*p.minGap)) - 1
	if slack < 0 {
		slack = 0
	}
	scale := slack / sum
	bp := &botPlan{a: a, id: id, times: make([]int64, 0, budget), starts: make([]bool, 0, budget)}
	cursor := float64(start)
	gi := 0
	for i, b := range bursts {
		cursor += float64(p.minGap) + ex[i]*scale
		t := int64(cursor)
		for j := range b.size {
			if j > 0 {
				t += gaps[gi]
				gi++
			}
			bp.times = append(bp.times, min(t, end-1))
			bp.starts = append(bp.starts, j == 0)
		}
		cursor = float64(t)
	}
	return bp
}

// saveRands returns the states of the plans' random generators.
func saveRands(plans []*botPlan) [][]byte {
	states := make([][]byte, len(plans))
	for i, bp := range plans {
		states[i], _ = bp.src.MarshalBinary() // cannot fail
	}
	return states
}

// restoreRands sets the plans' random generators to states saveRands
// returned.
func restoreRands(plans []*botPlan, states [][]byte) {
	for i, bp := range plans {
		if err := bp.src.UnmarshalBinary(states[i]); err != nil {
			panic(err) // what MarshalBinary wrote
		}
	}
}

// retryAfter bounds the wait before a crawler retries a /robots.txt fetch
// that got a 5xx or 429: 55 to 65 minutes.
const retryAfter, retryJitter = 55 * 60, 10 * 60

// planRobots plans the robots.txt fetches of the crawlers of one host
// (one or all of them) and what the crawlers make of the answers, and
// returns how many requests it kept: fewer than planned when a crawler
// that obeys robots.txt stays away, because its copy disallows it
// everything or because the file is unreachable.
//
// A crawler fetches /robots.txt at its first request and at its first
// request 16 to 22 hours after its last fetch (Wget at the start of each
// burst, the spoofed crawlers and the other scripts never), and keeps the
// copy it fetched. The answer is 200, or an outage's status:
//   - 5xx or 429: the file is unreachable for the crawler's operator (its
//     crawlers share what it answered, as they share a cached copy): the
//     operator's crawlers that obey robots.txt make no request but
//     /robots.txt fetches (RFC 9309 §2.3.1.4: complete disallow) until one
//     of them gets a 2xx or a 4xx; every fetching crawler of the operator
//     retries at its first request 55 to 65 minutes after the operator's
//     last try, and at its first request at or after the outage's end.
//     The copy each held stays.
//   - 4xx: the crawler's copy allows everything (§2.3.1.3) until its next
//     fetch, which is due as usual or at its first request at or after the
//     outage's end, whichever comes first. Its operator's other crawlers
//     keep their copies, which can only disallow more.
//
// The order of the requests of all the crawlers is the final one (time,
// actor, sequence), so that an operator's crawlers see what the others
// were answered before them.
func (g *generator) planRobots(plans []*botPlan) int {
	type crawler struct {
		fetches              bool
		lastFetch, nextAfter int64
		fetchVer             int   // the version of the copy obeyed; -1 none or allow all
		dueAt                int64 // after a 4xx in an outage: fetch at the first request at or after; 0 none
	}
	type operator struct {
		unreachable bool
		lastTry     int64 // the last fetch while unreachable
		retry       int64 // seconds from lastTry to the next try
		until       int64 // the end of the outage that answered it
	}
	type ref struct{ p, i int32 }
	var refs []ref
	for pi, bp := range plans {
		for i := range bp.times {
			refs = append(refs, ref{int32(pi), int32(i)})
		}
	}
	if len(plans) > 1 {
		slices.SortFunc(refs, func(x, y ref) int {
			a, b := plans[x.p], plans[y.p]
			if c := cmpInt(a.times[x.i], b.times[y.i]); c != 0 {
				return c
			}
			if c := cmpInt(a.id, b.id); c != 0 {
				return c
			}
			return cmpInt(x.i, y.i)
		})
	}
	crawlers := make([]crawler, len(plans))
	ops := map[string]*operator{}
	for pi, bp := range plans {
		p := bp.a.prof
		crawlers[pi] = crawler{fetches: p.behavior != Spoofed && p.behavior != Script || p.actor == "Wget", fetchVer: -1}
		if ops[p.op()] == nil {
			ops[p.op()] = &operator{}
		}
	}
	planned := 0
	for _, r := range refs {
		bp, c := plans[r.p], &crawlers[r.p]
		a, i := bp.a, int(r.i)
		p, rng, hp := a.prof, a.rng, a.hp
		op := ops[p.op()]
		t := bp.times[i]
		ev := event{t: t, actor: bp.id, seq: r.i}
		if bp.starts[i] {
			ev.flags |= flagBurstStart
		}
		if c.fetches {
			due := i == 0 || t-c.lastFetch >= c.nextAfter || c.dueAt > 0 && t >= c.dueAt
			if p.actor == "Wget" {
				due = bp.starts[i]
			} else if op.unreachable && (t >= op.until || t-op.lastTry >= op.retry) {
				due = true
			}
			if due {
				ev.flags |= flagFetch
				c.lastFetch = t
				c.nextAfter = int64(16*3600 + rng.IntN(6*3600))
				switch status, until := hp.robotsAnswer(t); {
				case unreachable(status):
					op.unreachable, op.lastTry, op.until = true, t, until
					op.retry = int64(retryAfter + rng.IntN(retryJitter+1))
				case status >= 400:
					op.unreachable = false
					c.fetchVer, c.dueAt = -1, until
				default:
					op.unreachable = false
					c.fetchVer, c.dueAt = versionAt(hp.versions, t), 0
				}
			}
		}
		if ev.flags&flagFetch == 0 && p.behavior.obeys() && (op.unreachable ||
			c.fetchVer >= 0 && !a.groups.allowed(&hp.versions[c.fetchVer], p.uas[0], "/")) {
			continue // unreachable, or disallowed everything: the crawler stays away
		}
		g.events = append(g.events, ev)
		planned++
	}
	return planned
}

// Local-time weight of browser traffic by hour of day.
var diurnal = [24]float64{3, 2, 1.5, 1, 1, 1.5, 3, 5, 7, 8, 9, 9, 9, 8, 8, 8, 8, 9, 10, 11, 10, 8, 6, 4}

var humanPages = []weighted{{secHome, 10}, {secProduct, 30}, {secCategory, 15}, {secBlog, 8}, {secDocs, 5},
	{secWiki, 4}, {secUebersicht, 2}, {secSearch, 8}, {secCart, 5}, {secCheckout, 2}, {secAccount, 4},
	{secPrivate, 1}, {secArchive, 2}, {secBeta, 1}, {secPDF, 2}, {secPrint, 1}}

var landingReferers = []string{"", "", "", "https://www.google.com/", "https://www.google.com/",
	"https://www.google.com/", "https://www.google.de/", "https://www.bing.com/", "https://duckduckgo.com/",
	"https://t.co/3xK9qLmZ2a", "https://www.facebook.com/", "https://news.ycombinator.com/",
	"https://www.reddit.com/r/BuyItForLife/", "android-app://com.google.android.gm/"}

// aiLandings are the ways people come from an AI assistant's answer
// (Config.AIReferrals), repeated by how often each comes. ChatGPT adds
// utm_source=chatgpt.com to the links it gives (OpenAI's "Publishers and
// Developers - FAQ", help.openai.com); a browser may send no Referer with
// it (a noreferrer link, the app). The hosts are those of bots/referrers.json.
var aiLandings = []struct{ referer, query string }{
	{"https://chatgpt.com/", "utm_source=chatgpt.com"},
	{"https://chatgpt.com/", "utm_source=chatgpt.com"},
	{"https://chatgpt.com/", "utm_source=chatgpt.com"},
	{"", "utm_source=chatgpt.com"},
	{"", "utm_source=chatgpt.com"},
	{"https://chatgpt.com/", ""},
	{"https://www.perplexity.ai/", ""},
	{"https://www.perplexity.ai/", ""},
	{"https://www.perplexity.ai/", ""},
	{"https://claude.ai/", ""},
	{"https://copilot.microsoft.com/", ""},
	{"https://gemini.google.com/", ""},
}

// planBrowsers plans n requests of browser sessions for one host.
func (g *generator) planBrowsers(hp *hostPlan, hi, n int, start, end int64) {
	if n <= 0 {
		return
	}
	rng := g.newRand(hi, 1<<30)
	// A pool of visitors, some of whom come back (Zipf-like choice).
	nv := max(20, n/12)
	visitors := make([]visitor, nv)
	uas := browserUAs
	if g.cfg.Agents != 0 {
		// Config.Agents below the default: fewer browsers.
		uas = uas[:min(len(uas), g.cfg.Agents-len(botUserAgents()))]
	}
	uaCum := make([]float64, len(uas))
	tot := 0.0
	for i, b := range uas {
		tot += b.weight
		uaCum[i] = tot
	}
	for i := range visitors {
		x := rng.Float64() * tot
		ua := uas[len(uas)-1].ua
		for j, c := range uaCum {
			if x < c {
				ua = uas[j].ua
				break
			}
		}
		visitors[i] = visitor{ip: browserIP(rng), ua: ua}
	}
	if g.cfg.Agents != 0 {
		// Config.Agents: the browser User-Agents beyond the default ones go
		// to the returning visitors 1, 2, ..., who come often enough for
		// each to appear.
		for j, ua := range g.moreUAs {
			if 1+j < len(visitors) {
				visitors[1+j].ua = ua
			}
		}
	}
	pick := newSectionPick(humanPages)
	for sid := uint64(0); n > 0; sid++ {
		v := &visitors[int(float64(nv)*math.Pow(rng.Float64(), 2))]
		srng := g.newRand(hi, 1<<31|sid)
		a := &actor{hp: hp, rng: srng, pick: pick, visitor: v}
		a.landing = append(a.landing, pickStr(srng, landingReferers)...)
		if g.cfg.AIReferrals > 0 {
			if arng := g.newRand(hi, 1<<29|sid); arng.Float64() < g.cfg.AIReferrals {
				l := aiLandings[arng.IntN(len(aiLandings))]
				a.landing, a.landingQuery = append(a.landing[:0], l.referer...), l.query
			}
		}
		id := g.addActor(a)
		t := g.diurnalTime(rng, start, end)
		pages := 1
		for pages < 12 && rng.IntN(100) < 65 {
			pages++
		}
		seq := int32(0)
		for pg := 0; pg < pages && n > 0; pg++ {
			assets := rng.IntN(4)
			if pg == 0 {
				assets = len(assetPaths) + 1 + rng.IntN(5)
			}
			for j := 0; j <= assets && n > 0; j++ {
				ev := event{t: min(t, end-1), actor: id, seq: seq}
				if j == 0 {
					ev.flags = flagBurstStart
				}
				g.events = append(g.events, ev)
				seq++
				n--
				if j < assets {
					t += int64(rng.IntN(2))
				}
			}
			t += 5 + int64(rng.ExpFloat64()*60)
		}
	}
}

// diurnalTime draws a time in [start, end-3600) weighted by the local hour.
func (g *generator) diurnalTime(rng *rand.Rand, start, end int64) int64 {
	span := end - 3600 - start
	for {
		t := start + rng.Int64N(span)
		_, off := time.Unix(t, 0).In(g.loc).Zone()
		h := ((t + int64(off)) % 86400) / 3600
		if rng.Float64()*11 < diurnal[h] {
			return t
		}
	}
}

func browserIP(rng *rand.Rand) string {
	if rng.IntN(100) < 28 {
		p := browserV6Prefixes[rng.IntN(len(browserV6Prefixes))]
		var b [16]byte
		b[0], b[1] = byte(p[0]>>8), byte(p[0])
		b[2], b[3] = byte(p[1]>>8), byte(p[1])
		for i := 4; i < 16; i++ {
			b[i] = byte(rng.IntN(256))
		}
		return netip.AddrFrom16(b).String()
	}
	p := browserV4Prefixes[rng.IntN(len(browserV4Prefixes))]
	return netip.AddrFrom4([4]byte{p[0], p[1], byte(rng.IntN(256)), byte(1 + rng.IntN(254))}).String()
}

// render turns the planned events into requests.
func (g *generator) render(emit func(*Request) error) error {
	var req Request
	target := make([]byte, 0, 256)
	referer := make([]byte, 0, 256)
	// Offsets change rarely: remember the current zone's validity.
	var zoneStart, zoneEnd int64 = 1, 0
	var off int32
	for _, ev := range g.events {
		if ev.t < zoneStart || ev.t >= zoneEnd {
			lt := time.Unix(ev.t, 0).In(g.loc)
			_, o := lt.Zone()
			s, e := lt.ZoneBounds()
			off = int32(o)
			zoneStart, zoneEnd = math.MinInt64, math.MaxInt64
			if !s.IsZero() {
				zoneStart = s.Unix()
			}
			if !e.IsZero() {
				zoneEnd = e.Unix()
			}
		}
		a := g.actors[ev.actor]
		req = Request{Unix: ev.t, Offset: off, Host: a.hp.host, Protocol: "HTTP/1.1"}
		target, referer = target[:0], referer[:0]
		if a.prof != nil {
			target, referer = a.renderBot(&req, ev, target, referer)
		} else {
			target, referer = a.renderBrowser(&req, ev, target, referer)
		}
		req.Target, req.Referer = target, referer
		if err := emit(&req); err != nil {
			return err
		}
	}
	return nil
}

func (a *actor) renderBot(req *Request, ev event, target, referer []byte) ([]byte, []byte) {
	p, rng := a.prof, a.rng
	if ev.flags&flagBurstStart != 0 || a.curIP == "" {
		a.curIP = a.ips[rng.IntN(len(a.ips))]
		a.curUA = p.uas[0]
		if len(p.uas) > 1 && rng.IntN(100) < 15 {
			a.curUA = p.uas[1+rng.IntN(len(p.uas)-1)]
		}
	}
	req.ClientIP, req.UserAgent = a.curIP, a.curUA
	req.Actor, req.Bot, req.Behavior = p.actor, p.bot, p.behavior
	if p.behavior != Spoofed {
		req.Operator = p.op()
	}
	req.Method = "GET"
	if p.bot == "Googlebot" && p.behavior == Polite && rng.IntN(100) < 30 {
		req.Protocol = "HTTP/2.0"
	}
	if ev.flags&flagFetch != 0 {
		// What planRobots decided the crawler makes of the answer.
		target = append(target, "/robots.txt"...)
		req.Status, _ = a.hp.robotsAnswer(ev.t)
		switch {
		case unreachable(req.Status):
			req.Bytes = errorPageBytes // the copy held stays
		case req.Status >= 400:
			req.Bytes = missingPageBytes
			a.fetchVer = -1 // allow all
		default:
			a.fetchVer = versionAt(a.hp.versions, ev.t)
			req.Bytes = int64(len(a.hp.versions[a.fetchVer].Text))
		}
		return target, referer
	}
	var k kind
	for try := 0; ; try++ {
		target = target[:0]
		if try == 10 {
			target, k = append(target, '/'), kindPage
			break
		}
		target, k = a.hp.appendTarget(target, rng, a.pick.pick(rng), false)
		if !p.behavior.obeys() || a.fetchVer < 0 || a.groups.allowed(&a.hp.versions[a.fetchVer], a.curUA, string(target)) {
			break
		}
	}
	if p.behavior == Script && rng.IntN(100) < 25 && p.actor == "curl" {
		req.Method = "HEAD"
	}
	req.Status, req.Bytes = response(rng, k, req.Method)
	return target, referer
}

func (a *actor) renderBrowser(req *Request, ev event, target, referer []byte) ([]byte, []byte) {
	rng := a.rng
	req.ClientIP, req.UserAgent = a.visitor.ip, a.visitor.ua
	req.Actor, req.Behavior = "browser", Browser
	req.Method = "GET"
	if rng.IntN(100) < 80 {
		req.Protocol = "HTTP/2.0"
	}
	var k kind
	if ev.flags&flagBurstStart != 0 {
		// A page: the referer is the previous page or the landing referer.
		if ev.seq == 0 {
			referer = append(referer, a.landing...)
		} else {
			referer = append(append(append(referer, "https://"...), a.hp.host...), a.page...)
		}
		sec := a.pick.pick(rng)
		target, k = a.hp.appendTarget(target, rng, sec, true)
		if ev.seq == 0 && a.landingQuery != "" {
			sep := byte('?')
			if slices.Contains(target, '?') {
				sep = '&'
			}
			target = append(append(target, sep), a.landingQuery...)
		}
		if k == kindRedirect {
			req.Method = "POST"
		}
		a.page = append(a.page[:0], target...)
	} else {
		referer = append(append(append(referer, "https://"...), a.hp.host...), a.page...)
		// Assets of the first page in order, then product images.
		// (The first page always has more assets than assetPaths, and only
		// its assets have seq 1..len(assetPaths).)
		if ev.seq >= 1 && int(ev.seq) <= len(assetPaths) {
			target, k = append(target, assetPaths[ev.seq-1]...), kindAsset
		} else {
			target, k = a.hp.appendTarget(target, rng, secImage, true)
		}
	}
	req.Status, req.Bytes = response(rng, k, req.Method)
	return target, referer
}
