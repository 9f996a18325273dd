//go:build duckdb_arrow

package audit

import (
	"cmp"
	"context"
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/report/firewall"
)

// BlockKinds are the kinds of finding that may put a client address on the
// block list (--block-on), in the order of the parameters of
// queries/blocklist.sql.
var BlockKinds = []string{"disallowed", "spoofed", "in-grace", "crawl-delay", "request-rate", "visit-time", "unreachable"}

// DefaultBlockOn is the default of --block-on.
var DefaultBlockOn = []string{"disallowed", "spoofed"}

// DefaultBlockTTL is the default of --block-ttl.
const DefaultBlockTTL = 720 * time.Hour

// BlockPolicy says who qualifies for the block list and how it is written
// (docs/blocklists.md).
type BlockPolicy struct {
	// On are the kinds of BlockKinds that qualify an address; empty:
	// DefaultBlockOn.
	On []string
	// Min is how many requests of one kind qualify an address (--block-min;
	// below 1: 1).
	Min int
	// Verified lets an address verified as its crawler's operator's qualify
	// (--block-verified). Without it, such an address is never written.
	Verified bool
	// Allow are the --allow-list prefixes, never blocked; AllowFile names
	// the file for the headers.
	Allow     []netip.Prefix
	AllowFile string
	// Widest allows prefixes wider than exact merges (--block-aggregate);
	// it needs an audit run with Config.SeenClients, as does the
	// cloudflare format (which widens IPv6 to /64).
	Widest firewall.Widest
	// TTL is how long a firewall keeps an entry (--block-ttl); 0: for ever.
	TTL time.Duration
	// Formats are the --block-format files written beside blocklist.txt.
	Formats []firewall.Format
	// Tool names the program and version in the headers.
	Tool string
}

// ParseBlockOn parses a --block-on list ("disallowed,spoofed").
func ParseBlockOn(s string) ([]string, error) {
	var kinds []string
	for _, k := range strings.Split(s, ",") {
		k = strings.TrimSpace(k)
		if k == "" {
			continue
		}
		if !slices.Contains(BlockKinds, k) {
			return nil, fmt.Errorf("unknown kind %q (kinds: %s)", k, strings.Join(BlockKinds, ", "))
		}
		if !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	if len(kinds) == 0 {
		return nil, fmt.Errorf("no kind given (kinds: %s)", strings.Join(BlockKinds, ", "))
	}
	return kinds, nil
}

func (p BlockPolicy) normalized() BlockPolicy {
	if len(p.On) == 0 {
		p.On = DefaultBlockOn
	}
	if p.Min < 1 {
		p.Min = 1
	}
	return p
}

// widens reports whether a file under p may block more than the qualifying
// addresses: --block-aggregate, or Cloudflare's IPv6 /64.
func (p BlockPolicy) widens() bool {
	return p.Widest != (firewall.Widest{}) ||
		slices.ContainsFunc(p.Formats, func(f firewall.Format) bool { return f.Name == "cloudflare" })
}

// args returns the parameters of queries/blocklist.sql.
func (p BlockPolicy) args() []any {
	args := []any{p.Min}
	for _, k := range BlockKinds {
		args = append(args, slices.Contains(p.On, k))
	}
	return append(args, p.Verified)
}

// meta says how a list under p is made, for the headers of its files.
func (r *Result) blockMeta(p BlockPolicy) firewall.Meta {
	m := firewall.Meta{
		Tool: p.Tool, Made: time.Now().UTC(), Logs: r.logs,
		Robots: r.Summary.Audit.Robots, Spec: r.Summary.Audit.Spec,
		Min: p.Min, Verified: p.Verified, AllowList: p.AllowFile, Aggregate: p.Widest, TTL: p.TTL,
	}
	if in := r.Summary.Input; in.From != nil && in.To != nil {
		m.From, m.To = *in.From, *in.To
	}
	for _, k := range p.On {
		if kind, ok := firewall.ParseKind(k); ok {
			m.Kinds = append(m.Kinds, kind)
		}
	}
	return m
}

// BlockList returns the block list under p: the addresses
// queries/blocklist.sql says qualify, less the allow list and the addresses
// never blocked, merged into prefixes that cover no other address seen in
// the logs; and what was dropped.
func (r *Result) BlockList(ctx context.Context, p BlockPolicy) (*firewall.List, firewall.Stats, error) {
	p = p.normalized()
	if err := r.blockSource(ctx); err != nil {
		return nil, firewall.Stats{}, err
	}
	if p.widens() && r.clients == nil && r.Summary.Input.HumanRequests > 0 {
		return nil, firewall.Stats{}, fmt.Errorf("--block-aggregate and the cloudflare format need the addresses of every client: run the audit with Config.SeenClients")
	}
	if err := r.store.Exec(ctx, queries.SQL("blocklist.sql"), p.args()...); err != nil {
		return nil, firewall.Stats{}, fmt.Errorf("block list: %w", err)
	}
	// The slices are made to size: grown by append, the entries of millions
	// of addresses were allocated several times over.
	var nEntries, nHeld, nSeen int64
	err := r.store.QueryRow(ctx, `SELECT count(*) FILTER (WHERE qualifies), count(*) FILTER (WHERE held),
		count(*) FILTER (WHERE NOT qualifies) FROM block_addresses`).Scan(&nEntries, &nHeld, &nSeen)
	if err != nil {
		return nil, firewall.Stats{}, fmt.Errorf("block list: %w", err)
	}
	if err := r.store.Exec(ctx, queries.SQL("blocklist_names.sql")); err != nil {
		return nil, firewall.Stats{}, fmt.Errorf("block list: %w", err)
	}
	defer r.store.Exec(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS block_named; DROP TABLE IF EXISTS block_claims; DROP TABLE IF EXISTS block_rows")
	var entries, held []firewall.Entry
	var seen []netip.Addr
	// One row per address, or per claim of a qualifying or held-back
	// address: its claims are its consecutive rows. Held-back addresses
	// (verified, qualifying otherwise) stay reachable like any other.
	var cur *[]firewall.Entry // entries or held; its last element is the current address
	var curIP string
	var claims claimArena
	err = r.store.EachLarge(ctx, queries.SQL("blocklist_rows.sql"), nil, func(v []any) error {
		if seen == nil {
			// Made at the first row, once DuckDB has sorted the rows and
			// given back the memory of the sort.
			entries = make([]firewall.Entry, 0, nEntries)
			held = make([]firewall.Entry, 0, nHeld)
			seen = make([]netip.Addr, 0, nSeen+int64(len(r.clients)))
		}
		ip, _ := v[0].(string)
		if cur == nil || ip != curIP {
			if cur != nil {
				last := &(*cur)[len(*cur)-1]
				last.Claims = claims.share(last.Claims)
			}
			cur = nil
			addr, _ := netip.ParseAddr(ip) // not an address (a logged host name): the zero Addr, counted invalid
			qualifies, _ := v[12].(bool)
			isHeld, _ := v[14].(bool)
			if !qualifies && addr.IsValid() {
				seen = append(seen, addr)
			}
			if !qualifies && !isHeld {
				return nil
			}
			e := firewall.Entry{Addr: addr}
			for k := 0; k < 6; k++ {
				e.Counts[k] = numeric(v[1+k])
			}
			e.Counts[firewall.Unreachable] = numeric(v[13])
			e.FirstSeen, _ = v[10].(time.Time)
			e.LastSeen, _ = v[11].(time.Time)
			cur = &entries
			if isHeld {
				cur = &held
			}
			*cur = append(*cur, e)
			curIP = ip
			claims.start()
		}
		if v[8] != nil || v[9] != nil {
			bot, _ := v[8].(string)
			id, _ := v[9].(string)
			sig, _ := v[15].(string)
			(*cur)[len(*cur)-1].Claims = claims.add(bot, id, sig)
		}
		return nil
	})
	if err != nil {
		return nil, firewall.Stats{}, fmt.Errorf("block list: %w", err)
	}
	if cur != nil {
		last := &(*cur)[len(*cur)-1]
		last.Claims = claims.share(last.Claims)
	}
	// Every address seen that does not qualify stays reachable: no widened
	// prefix (--block-aggregate, Cloudflare's /64) may cover it, nor a
	// published range of a crawler not on the list.
	opt := firewall.Options{Widest: p.Widest, Allow: p.Allow, Seen: append(seen, r.clients...)}
	if p.widens() {
		var from time.Time
		if r.Summary.Input.From != nil {
			from = *r.Summary.Input.From
		}
		opt.Protected = protectedRanges(r.ranges, entries, from)
	}
	meta := r.blockMeta(p)
	meta.Predating = markPredating(entries, r.ranges)
	l, st := firewall.Build(entries, opt, meta)
	sum := &report.BlocklistSummary{Written: len(l.Entries), HeldBackVerified: len(held),
		HeldBackAllowList: st.Allowed, HeldBackSpecial: st.NotBlockable + st.Invalid}
	for _, e := range l.Entries {
		if slices.ContainsFunc(e.Claims, func(c firewall.Claim) bool { return c.Predates }) {
			sum.Predating++
		}
	}
	l.Meta.Predating = sum.Predating
	if sum.HeldBackCrawlers, err = r.heldBackCrawlers(ctx, held, p); err != nil {
		return nil, firewall.Stats{}, fmt.Errorf("block list: %w", err)
	}
	r.Summary.Blocklist = sum
	return l, st, nil
}

// blockSource makes the views the block list's SQL reads
// (queries/blocklist_source.sql): over every request and its measures, or,
// for a lean audit that kept what the block list needs (Config.BlockList),
// over its counts (blocklist_source_lean.sql).
func (r *Result) blockSource(ctx context.Context) error {
	q := "blocklist_source_lean.sql"
	if !r.lean || !r.leanBlocks {
		if err := r.materialize(ctx); err != nil {
			return err
		}
		q = "blocklist_source.sql"
	}
	if err := r.store.Exec(ctx, queries.SQL(q)); err != nil {
		return fmt.Errorf("block list: %w", err)
	}
	return nil
}

// claimArena holds the claims of the block list's entries in shared chunks,
// with the crawlers' names and identities interned, and the entries with
// the same claims sharing one slice: a slice and two strings allocated per
// address cost more than the address's entry (3.1 M addresses: 120 MB).
// Whoever changes a claim of an entry clones its slice first.
type claimArena struct {
	chunk []firewall.Claim
	first int // the current address's first claim in chunk
	names map[string]string
	sets  map[string][]firewall.Claim
	key   []byte
}

const (
	// claimChunk is how many claims a chunk holds.
	claimChunk = 1 << 14
	// claimSets is how many distinct sets of claims are shared: beyond
	// it (a log of millions of invented crawlers) a set's key would cost
	// more than the set.
	claimSets = 1 << 12
)

// start begins the claims of the next address.
func (a *claimArena) start() { a.first = len(a.chunk) }

// add adds a claim of the current address and returns all of its claims,
// a slice that later claims of other addresses leave as it is.
func (a *claimArena) add(bot, identity, signature string) []firewall.Claim {
	if a.names == nil {
		a.names = map[string]string{}
	}
	intern := func(s string) string {
		if v, ok := a.names[s]; ok {
			return v
		}
		if len(a.names) < claimSets {
			a.names[s] = s
		}
		return s
	}
	if len(a.chunk) == cap(a.chunk) {
		mine := a.chunk[a.first:]
		next := make([]firewall.Claim, len(mine), max(claimChunk, 2*len(mine)))
		copy(next, mine)
		a.chunk, a.first = next, 0
	}
	a.chunk = append(a.chunk, firewall.Claim{Bot: intern(bot), Identity: intern(identity), Signature: intern(signature)})
	return a.chunk[a.first:len(a.chunk):len(a.chunk)]
}

// share returns the claims of the current address (the last add returned
// them), or an earlier address's same claims, giving back the room of
// these.
func (a *claimArena) share(claims []firewall.Claim) []firewall.Claim {
	if len(claims) == 0 {
		return claims
	}
	a.key = a.key[:0]
	for _, c := range claims {
		a.key = append(a.key, c.Bot...)
		a.key = append(a.key, 0)
		a.key = append(a.key, c.Identity...)
		a.key = append(a.key, 0)
		a.key = append(a.key, c.Signature...)
		a.key = append(a.key, 0)
	}
	if s, ok := a.sets[string(a.key)]; ok {
		a.chunk = a.chunk[:a.first]
		return s
	}
	if a.sets == nil {
		a.sets = map[string][]firewall.Claim{}
	}
	if len(a.sets) < claimSets {
		a.sets[string(a.key)] = claims
	}
	return claims
}

// heldBackCrawlers names the verified crawlers of the held-back addresses:
// per crawler, its addresses, their requests of each --block-on kind, and
// the robots.txt rule its disallowed requests broke most.
func (r *Result) heldBackCrawlers(ctx context.Context, held []firewall.Entry, p BlockPolicy) ([]report.HeldBackCrawler, error) {
	if len(held) == 0 {
		return nil, nil
	}
	byBot := map[string]*report.HeldBackCrawler{}
	var order []string
	for _, e := range held {
		for _, c := range e.Claims {
			if c.Identity != report.IdentityVerified {
				continue
			}
			h := byBot[c.Bot]
			if h == nil {
				h = &report.HeldBackCrawler{Bot: c.Bot, Requests: map[string]int64{}}
				byBot[c.Bot] = h
				order = append(order, c.Bot)
			}
			h.Addresses++
			for _, k := range p.On {
				if kind, ok := firewall.ParseKind(k); ok && e.Counts[kind] > 0 {
					h.Requests[k] += e.Counts[kind]
				}
			}
		}
	}
	err := r.store.Each(ctx, queries.SQL("blocklist_held.sql"), nil, func(v []any) error {
		if h := byBot[str(v[0])]; h != nil && h.Rule == "" {
			h.Group, h.Rule, h.Line = str(v[1]), str(v[2]), int(numeric(v[3]))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]report.HeldBackCrawler, 0, len(order))
	for _, b := range order {
		h := byBot[b]
		for _, row := range r.Summary.Bots {
			if row.Bot == b && row.Identity == report.IdentityVerified && row.Operator != "" {
				h.Operator = row.Operator
				break
			}
		}
		out = append(out, *h)
	}
	total := func(h report.HeldBackCrawler) int64 {
		var t int64
		for _, n := range h.Requests {
			t += n
		}
		return t
	}
	slices.SortStableFunc(out, func(a, b report.HeldBackCrawler) int { return cmp.Compare(total(b), total(a)) })
	return out, nil
}

// blockWarnings says what the files of l under p leave out or widen that a
// user should know: Cloudflare's IPv6 rows widened to /64, and those not
// written because their /64 holds a client that does not qualify.
func blockWarnings(l *firewall.List, p BlockPolicy) []string {
	var ws []string
	if !slices.ContainsFunc(p.Formats, func(f firewall.Format) bool { return f.Name == "cloudflare" }) {
		return nil
	}
	var widened, dropped []string
	for it := range firewall.CloudflareAll(l) {
		switch {
		case it.Dropped:
			dropped = append(dropped, it.Value())
		case len(it.Widened) > 0:
			widened = append(widened, it.Value())
		}
	}
	if len(widened) > 0 {
		ws = append(ws, fmt.Sprintf("blocklist.cloudflare.csv widens %d IPv6 entries to their /64, as Cloudflare requires (no other client of those was seen): %s", len(widened), firstFew(widened)))
	}
	if len(dropped) > 0 {
		ws = append(ws, fmt.Sprintf("blocklist.cloudflare.csv leaves out %d IPv6 /64s that hold clients that do not qualify (Cloudflare takes nothing longer than /64): %s; block those addresses with another format", len(dropped), firstFew(dropped)))
	}
	return ws
}

func firstFew(s []string) string {
	if len(s) > 5 {
		return strings.Join(s[:5], ", ") + fmt.Sprintf(" and %d more", len(s)-5)
	}
	return strings.Join(s, ", ")
}
