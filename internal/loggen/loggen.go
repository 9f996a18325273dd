// Package loggen generates month-like web access traffic for tests,
// benchmarks and the demo audit (testdata/sample), deterministically from a
// seed, and writes it as combined, JSON lines or W3C (IIS) logs.
//
// The traffic is a mix of people with browsers (Chrome, Firefox, Safari,
// Edge, Samsung Internet; desktop and mobile; IPv4 and IPv6; sessions of
// pages followed by their assets, more by day than by night in the log's
// time zone), crawlers with their real User-Agent strings and a few
// addresses each from their operators' published ranges, and scripts (curl,
// python-requests, Go-http-client, Wget). The crawlers follow behaviour
// profiles (see Behavior) against the robots.txt history of Robots, so that
// an audit finds something definite: polite bots that fetch /robots.txt
// about daily and obey the copy they fetched (GPTBot is disallowed from the
// second version on and stops once it has fetched it), Bytespider ignoring
// Disallow, MJ12bot breaching Crawl-delay in bursts, DotBot breaching
// Request-rate, PetalBot crawling outside its Visit-time, a "Googlebot" from
// addresses outside Google's ranges, and browsers requesting disallowed
// paths (which an audit must never count).
//
// Decisions:
//   - Times are whole seconds (as in combined and W3C logs) and requests are
//     emitted in time order; requests in the same second keep a fixed order.
//   - Config.Lines is exact: every line is a request, there are no blank or
//     malformed lines (tests that need broken input add it themselves).
//   - Lines are split evenly between hosts; each host gets its own crawlers
//     and visitors, and its own copy of the robots.txt history.
//   - A crawler with a Crawl-delay in its group that obeys it keeps at least
//     Crawl-delay+1 seconds between any two of its requests to a host,
//     /robots.txt included. Its volume is capped to fit the period.
//   - Polite crawlers obey the copy of robots.txt they fetched last, never
//     older than 22 hours. Because every version only adds restrictions for
//     the generated paths, their requests that a newer version disallows fall
//     in the 24-hour grace of contract §4, never in "disallowed".
//   - Request carries the generator's ground truth (Actor, Bot, Behavior) so
//     tests can check an audit against what was intended.
//   - The offsets written in combined and JSON lines logs are those of
//     Config.Location at each request (Europe/Berlin by default: +0200, then
//     +0100 from 2026-10-25T01:00:00Z). The time zone database is embedded
//     (time/tzdata) so the output does not depend on the machine.
package loggen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
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
}

// RealisticConfig returns the configuration of a month that looks like a
// real site's traffic (issue 15): October 2026 on www.example.com, seed 1,
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
	// (contract §5), "" for a browser.
	Bot string
	// Behavior is the actor's behaviour profile.
	Behavior Behavior
}

// Time returns the request time in the log's time zone offset.
func (r *Request) Time() time.Time {
	return time.Unix(r.Unix, 0).In(time.FixedZone("", int(r.Offset)))
}

// SampleConfig returns the configuration of the demo data in
// testdata/sample: October 2026 for www.example.com, 50,000 lines, seed 1.
func SampleConfig() Config {
	return Config{
		Seed:  1,
		Start: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
		End:   time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		Lines: 50000,
	}
}

// botShare scales the weights of the crawler profiles (in percent): the
// rest of the lines are browsers.
const botShare = 0.8

// hostPlan is the generator's state for one host.
type hostPlan struct {
	host     string
	versions []RobotsVersion
	cat      *catalogue // nil unless Config.Paths
}

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
	page    []byte // current page target
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
		g.planHost(&hostPlan{host: h, versions: vs}, hi, n)
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
	return rand.New(rand.NewPCG(uint64(g.cfg.Seed), uint64(hi)<<40|id))
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
		rng := g.newRand(hi, uint64(pi)+1)
		a := &actor{hp: hp, prof: p, rng: rng, pick: newSectionPick(p.interest), ips: p.ips, fetchVer: -1, groups: groupCache{}}
		id := g.addActor(a)
		used += g.planBot(a, id, budget, start, end)
	}
	if g.cfg.BotShare > 0 {
		// Make up for the crawlers capped by their Crawl-delay or stopped by
		// a Disallow of everything.
		if short := min(int(math.Round(float64(n)*g.cfg.BotShare)), n) - used; short > 0 {
			p := &profs[0] // Googlebot smartphone: polite, no Crawl-delay
			a := &actor{hp: hp, prof: p, rng: g.newRand(hi, 1<<36), pick: newSectionPick(p.interest), ips: p.ips, fetchVer: -1, groups: groupCache{}}
			used += g.planBot(a, g.addActor(a), short, start, end)
		}
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

// planBot plans up to budget requests of a crawler or script and returns
// how many it planned (fewer when the crawler stops because robots.txt
// disallows it everything).
func (g *generator) planBot(a *actor, id int32, budget int, start, end int64) int {
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
	times := make([]int64, 0, budget)
	starts := make([]bool, 0, budget)
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
			times = append(times, min(t, end-1))
			starts = append(starts, j == 0)
		}
		cursor = float64(t)
	}
	// robots.txt fetches, and what the crawler knows of the rules.
	fetches := p.behavior != Spoofed && p.behavior != Script || p.actor == "Wget"
	var lastFetch int64
	fetchVer := -1
	nextAfter := int64(0)
	planned := 0
	for i, t := range times {
		ev := event{t: t, actor: id, seq: int32(i)}
		if starts[i] {
			ev.flags |= flagBurstStart
		}
		if fetches {
			due := i == 0 || t-lastFetch >= nextAfter
			if p.actor == "Wget" {
				due = starts[i]
			}
			if due {
				ev.flags |= flagFetch
				lastFetch = t
				nextAfter = int64(16*3600 + rng.IntN(6*3600))
				fetchVer = versionAt(a.hp.versions, t)
			}
		}
		if ev.flags&flagFetch == 0 && p.behavior.obeys() && fetchVer >= 0 &&
			!a.groups.allowed(&a.hp.versions[fetchVer], p.uas[0], "/") {
			continue // disallowed everything: the crawler stays away
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
	req.Method = "GET"
	if p.bot == "Googlebot" && p.behavior == Polite && rng.IntN(100) < 30 {
		req.Protocol = "HTTP/2.0"
	}
	if ev.flags&flagFetch != 0 {
		target = append(target, "/robots.txt"...)
		a.fetchVer = versionAt(a.hp.versions, ev.t)
		req.Status, req.Bytes = 404, 1520
		if a.fetchVer >= 0 {
			req.Status, req.Bytes = 200, int64(len(a.hp.versions[a.fetchVer].Text))
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
