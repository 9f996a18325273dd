package audit

import (
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/report"
	"github.com/crawlaudit/crawlaudit/verify"
	"github.com/crawlaudit/crawlaudit/webbotauth"
)

// errSignedUnsupported stops a judge that cannot verify signatures (one made
// without signatures, as crawlaudit-beam's workers are) at the first signed
// request: judging it without its signature would give another identity
// than an audit that verifies it.
var errSignedUnsupported = errors.New("the logs hold signed requests (Signature-Input and Signature headers), " +
	"which this command does not verify yet: audit them with crawlaudit audit, which does")

// sigJudge verifies the signed requests of an audit (Web Bot Auth) and
// counts them per signer, key and outcome for summary.json's
// "signatures". The verifier and the signer table load at the first
// signed request, so that an audit of unsigned logs pays nothing.
type sigJudge struct {
	keys    *webbotauth.Keys
	extra   []webbotauth.Signer
	once    sync.Once // loads v and signers, from the judge or a filter
	err     error
	v       *webbotauth.Verifier
	signers *webbotauth.SignerTable
	// agents are the states of browser User-Agents whose valid signature
	// makes them a signer's agent, by agent name and header.
	agents map[string]int32
	counts map[sigCountKey]*sigCount
	req    webbotauth.Request
}

// sigCountKey is one line of summary.json's "signatures".
type sigCountKey struct {
	signer, key string
	status      webbotauth.Status
}

type sigCount struct {
	requests int64
	bots     map[string]struct{}
}

// maxSigCounts bounds the lines of "signatures": keys and signers come
// from the logs, so a hostile log could invent millions; past it, new
// ones are counted under signer and key "(other)".
const maxSigCounts = 1000

func newSigJudge(keys *webbotauth.Keys, extra []webbotauth.Signer) *sigJudge {
	return &sigJudge{keys: keys, extra: extra, agents: map[string]int32{}, counts: map[sigCountKey]*sigCount{}}
}

// load makes the verifier: the built-in snapshot with the given keys over
// it, and the signer table.
func (s *sigJudge) load() error {
	s.once.Do(func() {
		snap, err := webbotauth.Snapshot()
		if err != nil {
			s.err = err
			return
		}
		keys := snap
		if s.keys != nil {
			keys = snap.Override(s.keys)
		}
		s.v = webbotauth.NewVerifier(keys, webbotauth.Options{})
		s.signers, s.err = webbotauth.NewSignerTable(s.extra)
	})
	return s.err
}

// precheck verifies the signature of the parsed row r ahead of the judge
// (webbotauth.Verifier.Precheck), in the parsing goroutine that read it:
// the checks then run on every core, and the judge, which must see the
// requests in order for replays, finds them cached. Safe for concurrent
// use.
func (s *sigJudge) precheck(r *logfmt.Row) {
	if s.load() != nil {
		return
	}
	req := webbotauth.Request{
		Message: webbotauth.Message{Method: string(ingest.RepairUTF8(r.Method)), Authority: string(ingest.RepairUTF8(r.Host)),
			Target: string(ingest.RepairUTF8(r.Target)), Scheme: string(r.Scheme)},
		Time:           time.UnixMicro(r.Time),
		SignatureAgent: string(r.SignatureAgent), SignatureInput: string(r.SignatureInput), Signature: string(r.Signature),
	}
	s.v.Precheck(&req)
}

// sigPrecheck makes the human filters check signatures ahead of the judge
// (sigJudge.precheck); a variable for the benchmark that weighs it.
var sigPrecheck = true

// stats returns the verifier's counts (zero before any signed request).
func (s *sigJudge) stats() webbotauth.Stats {
	if s == nil || s.v == nil {
		return webbotauth.Stats{}
	}
	return s.v.Stats()
}

// sigColumns are the columns of a batch that a signed request fills; nil
// columns when the batch has no signed request.
type sigColumns struct {
	agent, input, sig, scheme *array.String
}

// sigColumnsOf returns the signature columns of rec, or ok false when no
// row of rec carries a signature (the common case, one check per batch).
func sigColumnsOf(rec arrow.RecordBatch) (c sigColumns, ok bool) {
	if int(rec.NumCols()) <= ingest.ColSignature {
		return c, false
	}
	c.input = rec.Column(ingest.ColSignatureInput).(*array.String)
	c.sig = rec.Column(ingest.ColSignature).(*array.String)
	n := c.input.Len()
	if c.input.NullN() == n && c.sig.NullN() == n {
		return c, false
	}
	c.agent = rec.Column(ingest.ColSignatureAgent).(*array.String)
	c.scheme = rec.Column(ingest.ColScheme).(*array.String)
	return c, true
}

// signed reports whether row i carries a signature header.
func (c *sigColumns) signed(i int) bool {
	return c.input != nil && (c.input.IsValid(i) || c.sig.IsValid(i))
}

func strOr(a *array.String, i int) string {
	if a == nil || a.IsNull(i) {
		return ""
	}
	return a.Value(i)
}

// verify returns the outcome of the signed row i. host, method and target
// are as logged; ip the canonical client address ("" for none).
func (s *sigJudge) verify(c *sigColumns, i int, us int64, host, method, target, ip string) (webbotauth.Result, error) {
	if err := s.load(); err != nil {
		return webbotauth.Result{}, fmt.Errorf("the keys of signed requests: %w", err)
	}
	r := &s.req
	*r = webbotauth.Request{
		Message: webbotauth.Message{Method: method, Authority: host, Target: target, Scheme: strOr(c.scheme, i)},
		Time:    time.UnixMicro(us), ClientIP: ip,
		SignatureAgent: strOr(c.agent, i), SignatureInput: strOr(c.input, i), Signature: strOr(c.sig, i),
	}
	res := s.v.Verify(r)
	*r = webbotauth.Request{} // the strings alias the batch
	return res, nil
}

// count adds one request of bot ("" for one that stayed a browser's) to the
// line of its signer, key and outcome.
func (s *sigJudge) count(res webbotauth.Result, bot string) {
	k := sigCountKey{signer: res.Signer, key: res.KeyID, status: res.Status}
	c, ok := s.counts[k]
	if !ok {
		if len(s.counts) >= maxSigCounts {
			k.signer, k.key = "(other)", "(other)"
			if c, ok = s.counts[k]; !ok {
				c = &sigCount{bots: map[string]struct{}{}}
				s.counts[k] = c
			}
		} else {
			c = &sigCount{bots: map[string]struct{}{}}
			s.counts[k] = c
		}
	}
	c.requests++
	if bot != "" && len(c.bots) < 100 {
		c.bots[bot] = struct{}{}
	}
}

// summary returns summary.json's "signatures": one line per signer, key
// and outcome, most requests first; nil when no request was signed.
func (s *sigJudge) summary() []report.SignatureRow {
	if s == nil || len(s.counts) == 0 {
		return nil
	}
	out := make([]report.SignatureRow, 0, len(s.counts))
	for k, c := range s.counts {
		row := report.SignatureRow{Signer: k.signer, Key: k.key, Status: string(k.status), Requests: c.requests, Bots: []string{}}
		for b := range c.bots {
			row.Bots = append(row.Bots, b)
		}
		sort.Strings(row.Bots)
		out = append(out, row)
	}
	sort.Slice(out, func(a, b int) bool {
		x, y := out[a], out[b]
		if x.Requests != y.Requests {
			return x.Requests > y.Requests
		}
		if x.Signer != y.Signer {
			return x.Signer < y.Signer
		}
		if x.Key != y.Key {
			return x.Key < y.Key
		}
		return x.Status < y.Status
	})
	return out
}

// agentState returns the state of a request with the browser User-Agent ua
// and a valid signature of a signer whose table row names its agent: the
// signer's agent, judged as a bot (§ signed requests, docs/signatures.md),
// or -1 when the signer table names no agent for it.
func (j *judge) agentState(ua string, res webbotauth.Result) int32 {
	sg, ok := j.sig.signers.Lookup(res.Signer)
	if !ok || sg.Agent == "" {
		return -1
	}
	key := sg.Agent + "\x00" + ua
	if id, ok := j.sig.agents[key]; ok {
		return id
	}
	bot := bots.Bot{Name: sg.Agent, Operator: sg.Operator, Purpose: bots.PurposeAIAssistant, IsBot: true}
	if c, ok := bots.Lookup(sg.Agent); ok && strings.EqualFold(c.Operator, sg.Operator) {
		// The table's spelling, so that the agent has one row whether its
		// header or its signature named it. (A table entry of that name
		// but another operator is another product: the signer's row
		// names the agent then.)
		bot = bots.Bot{Name: c.Name, Operator: c.Operator, Purpose: c.Purpose, IsBot: true, Known: true}
	}
	id := j.newUAStateOf(ua, bot, true)
	j.sig.agents[strings.Clone(key)] = id
	j.uaBytes += len(key) + uaStateBytes
	return id
}

// signedIdentity is what a signature says of who made a request of bot,
// with the evidence: decisive is false when it says nothing (the ranges
// and reverse DNS then decide, and note is added to their evidence).
func (s *sigJudge) signedIdentity(bot bots.Bot, res webbotauth.Result) (id verify.Identity, evidence string, decisive bool) {
	who := res.Signer
	if who == "" {
		who = "an unnamed signer"
	}
	switch res.Status {
	case webbotauth.StatusValid:
		sg, ok := s.signers.Lookup(res.Signer)
		switch {
		case !ok:
			return 0, fmt.Sprintf("a valid Web Bot Auth signature of %s (key %s), a signer no signer-table row names, so it settles nothing", who, res.KeyID), false
		case bot.Operator == "":
			return 0, fmt.Sprintf("a valid Web Bot Auth signature of %s (%s, key %s), but %s has no known operator to compare", who, sg.Operator, res.KeyID, bot.Name), false
		case strings.EqualFold(sg.Operator, bot.Operator):
			return verify.Verified, fmt.Sprintf("valid Web Bot Auth signature of %s (%s), key %s", who, sg.Operator, res.KeyID), true
		default:
			return verify.Spoofed, fmt.Sprintf("valid Web Bot Auth signature of %s (%s), key %s: another operator than %s's (%s)", who, sg.Operator, res.KeyID, bot.Name, bot.Operator), true
		}
	case webbotauth.StatusInvalid:
		return verify.Spoofed, fmt.Sprintf("invalid Web Bot Auth signature (%s, key %s): %s", who, res.KeyID, res.Reason), true
	case webbotauth.StatusReplayed:
		return verify.Spoofed, fmt.Sprintf("replayed Web Bot Auth signature (%s, key %s): %s", who, res.KeyID, res.Reason), true
	}
	return 0, fmt.Sprintf("Web Bot Auth signature %s: %s", res.Status, res.Reason), false
}

// sigClaimKey is a claim of a signed request: the bot, the signature's
// signer, key and outcome, and, when the signature does not settle the
// identity, the client address the ranges judge.
type sigClaimKey struct {
	bot         int32
	ip          string
	signer, key string
	status      webbotauth.Status
}

// signedOf is claims.of for a signed request: its claim carries the
// signature's outcome (the column signature_status), and a decisive
// signature its identity whatever the address.
func (c *claims) signedOf(s *sigJudge, ua *uaState, ip string, us int64, res webbotauth.Result) (int32, verify.Identity) {
	identity, evidence, decisive := s.signedIdentity(ua.bot, res)
	k := sigClaimKey{bot: ua.botID, signer: res.Signer, key: res.KeyID, status: res.Status}
	if !decisive {
		k.ip = ip
	}
	if ac, ok := c.bySig[k]; ok && us >= ac.from && us < ac.until {
		cl := &c.list[ac.id-c.base]
		cl.rows++
		cl.first, cl.last = min(cl.first, us), max(cl.last, us)
		return ac.id, cl.check.Identity
	}
	var (
		chk  verify.Check
		addr netip.Addr
		ac   = addrClaim{from: -1 << 63, until: 1<<63 - 1}
	)
	if a, err := netip.ParseAddr(ip); err == nil {
		addr = a.Unmap()
	}
	if decisive {
		chk = verify.Check{Identity: identity, Evidence: evidence}
	} else {
		chk = c.ranges().Check(ua.bot.Name, addr, us)
		ac.from, ac.until = chk.From, chk.Until
		chk.Evidence += "; " + evidence
	}
	ac.id = c.add(claim{bot: ua.bot.Name, addr: addr, check: chk, first: us, last: us,
		sigStatus: res.Status, signer: res.Signer, sigKey: res.KeyID})
	c.list[ac.id-c.base].rows++
	if c.bySig == nil || len(c.bySig) >= maxAddrCache {
		c.bySig = make(map[sigClaimKey]addrClaim)
	}
	if len(k.ip) <= maxCacheKey {
		k.ip, k.signer, k.key = strings.Clone(k.ip), strings.Clone(k.signer), strings.Clone(k.key)
		c.bySig[k] = ac
	}
	return ac.id, chk.Identity
}
