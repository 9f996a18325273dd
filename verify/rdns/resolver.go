package rdns

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/miekg/dns"
)

// Defaults of [Resolver].
const (
	DefaultTimeout     = 2 * time.Second
	DefaultConcurrency = 16
	// DefaultBudget bounds the live lookups of one [Resolve] call: a run
	// with thousands of addresses behind a slow resolver must still end.
	DefaultBudget = 5 * time.Minute
	// MaxForward is how many PTR names of one address [Resolver.Lookup]
	// resolves forward at most; an address with more names (rare, and
	// never the case for a crawler) keeps the rest unresolved.
	MaxForward = 8
	// ResolvConf is where a Resolver without a Server finds its name
	// server.
	ResolvConf = "/etc/resolv.conf"
	// maxChain bounds the CNAME chain followed inside one response (RFC
	// 2317 classless reverse delegation puts one CNAME before the PTR); a
	// longer chain is a failure ([ErrCNAMEChain]), never an answer.
	maxChain = 8
	// udpSize is the EDNS0 buffer size offered to the server (the DNS flag
	// day 2020 value); a truncated reply is asked again over TCP.
	udpSize = 1232
)

// Resolver looks up forward-confirmed reverse DNS with one DNS server. The
// zero value asks the first name server of /etc/resolv.conf with the
// default timeout and concurrency. A Resolver is safe for concurrent use
// and must not be copied after its first use.
type Resolver struct {
	// Server is the "host:port" of the DNS server, normally a recursive
	// resolver; "" means the first nameserver of /etc/resolv.conf (port
	// 53 unless it says otherwise).
	Server string
	// Timeout bounds each query (default 2 s). A query is sent once over
	// UDP and not retried (a timeout is a failure that a later run asks
	// again); a truncated reply is asked again over TCP, with a Timeout of
	// its own.
	Timeout time.Duration
	// Concurrency is how many addresses [Resolve] looks up at once
	// (default 16). One address's queries are made one after the other.
	Concurrency int
	// Budget bounds the time [Resolve] spends on live lookups (default
	// DefaultBudget). A lookup that has not ended when it runs out, or has
	// not begun, is an Answer with Err "over the dns time budget": missing
	// data, never a refutation.
	Budget time.Duration
	// Now returns the current time, which stamps each Answer (default
	// time.Now).
	Now func() time.Time

	once    sync.Once
	server  string      // resolved Server
	srvErr  string      // why there is no server
	vouched atomic.Bool // the last CheckHealth passed: answers are Checked
}

func (r *Resolver) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

func (r *Resolver) concurrency() int {
	if r.Concurrency > 0 {
		return r.Concurrency
	}
	return DefaultConcurrency
}

// BudgetOrDefault returns Budget, or DefaultBudget when it is not set.
func (r *Resolver) BudgetOrDefault() time.Duration {
	if r == nil {
		return DefaultBudget
	}
	return r.budget()
}

func (r *Resolver) budget() time.Duration {
	if r.Budget > 0 {
		return r.Budget
	}
	return DefaultBudget
}

func (r *Resolver) now() time.Time {
	if r.Now != nil {
		return r.Now().UTC()
	}
	return time.Now().UTC()
}

// serverAddr returns the server to ask, reading /etc/resolv.conf once when
// Server is empty.
func (r *Resolver) serverAddr() (string, string) {
	r.once.Do(func() {
		if r.Server != "" {
			r.server = r.Server
			return
		}
		cfg, err := dns.ClientConfigFromFile(ResolvConf)
		if err != nil {
			r.srvErr = "no name server: cannot read " + ResolvConf + ": " + err.Error()
			return
		}
		if len(cfg.Servers) == 0 {
			r.srvErr = "no name server in " + ResolvConf
			return
		}
		port := cfg.Port
		if port == "" {
			port = "53"
		}
		r.server = net.JoinHostPort(cfg.Servers[0], port)
	})
	return r.server, r.srvErr
}

// Lookup resolves one address: its PTR names (in-addr.arpa or ip6.arpa;
// an IPv4-mapped address is unmapped first), then the A and AAAA records of
// each of the first [MaxForward] names that is a host name, stopping at A
// when it says NXDOMAIN. Each query is bounded by Timeout and by ctx.
//
// Lookup never panics and never returns an error: a failure is an Answer
// with Err set (see [Answer]). When ctx is done before the lookup ends, Err
// is "canceled". Time is when the lookup ended. Checked is set once r has
// passed [Resolver.CheckHealth].
func (r *Resolver) Lookup(ctx context.Context, addr netip.Addr) (a Answer) {
	if r == nil {
		r = &Resolver{}
	}
	addr = addr.Unmap()
	a.Addr = addr
	defer func() {
		a.Time = r.now()
		a.Checked = r.vouched.Load()
		a.normalize()
	}()
	if !addr.IsValid() {
		a.Err = "invalid address"
		return a
	}
	server, why := r.serverAddr()
	if why != "" {
		a.Err = why
		return a
	}
	rev, err := dns.ReverseAddr(addr.WithZone("").String())
	if err != nil {
		a.Err = err.Error()
		return a
	}
	rrs, status := r.query(ctx, server, rev, dns.TypePTR)
	if status != "" {
		a.Err = status
		return a
	}
	for _, rr := range rrs {
		if ptr, ok := rr.(*dns.PTR); ok {
			a.Names = append(a.Names, canonicalName(ptr.Ptr))
		}
	}
	if len(a.Names) == 0 {
		return a
	}
	slices.Sort(a.Names)
	a.Names = slices.Compact(a.Names)
	a.Forward = make(map[string][]netip.Addr)
	resolved := 0
	for _, name := range a.Names {
		if resolved == MaxForward {
			break
		}
		if _, ok := dns.IsDomainName(name); !ok || name == "" {
			continue
		}
		resolved++
		addrs, status := r.forward(ctx, server, name)
		if status != "" {
			if a.Err == "" {
				a.Err = status
			}
			if status == ErrCanceled {
				break
			}
			continue
		}
		a.Forward[name] = addrs
	}
	return a
}

// forward returns the A and AAAA addresses of name (an empty list when it
// does not exist or has none), or the failure.
func (r *Resolver) forward(ctx context.Context, server, name string) ([]netip.Addr, string) {
	addrs := []netip.Addr{}
	for _, qtype := range []uint16{dns.TypeA, dns.TypeAAAA} {
		rrs, status := r.query(ctx, server, name, qtype)
		if status == ErrNXDomain {
			break // the name does not exist: no AAAA either
		}
		if status != "" {
			return nil, status
		}
		for _, rr := range rrs {
			var ip net.IP
			switch rr := rr.(type) {
			case *dns.A:
				ip = rr.A
			case *dns.AAAA:
				ip = rr.AAAA
			}
			if f, ok := netip.AddrFromSlice(ip); ok {
				addrs = append(addrs, f.Unmap())
			}
		}
	}
	slices.SortFunc(addrs, netip.Addr.Compare)
	return slices.Compact(addrs), ""
}

// query asks one question and returns the answer records of type qtype
// reached from qname through CNAMEs, or the failure: "nxdomain",
// "timeout", "servfail", "refused", another rcode, "canceled", a CNAME
// chain that settles nothing (see follow) or the network error's text.
func (r *Resolver) query(ctx context.Context, server, qname string, qtype uint16) ([]dns.RR, string) {
	if ctx.Err() != nil {
		return nil, ErrCanceled
	}
	m := new(dns.Msg)
	m.SetQuestion(dns.Fqdn(qname), qtype)
	m.SetEdns0(udpSize, false)
	resp, err := r.exchange(ctx, "udp", server, m)
	if err == nil && resp.Truncated {
		resp, err = r.exchange(ctx, "tcp", server, m)
	}
	if err != nil {
		return nil, failure(ctx, err)
	}
	switch resp.Rcode {
	case dns.RcodeSuccess:
	case dns.RcodeNameError:
		// The rcode speaks of the chain's last name (RFC 6604): a chain
		// that loops or runs on has no last name.
		if _, status := follow(resp, m.Question[0].Name, qtype); status == ErrCNAMELoop || status == ErrCNAMEChain {
			return nil, status
		}
		return nil, ErrNXDomain
	case dns.RcodeServerFailure:
		return nil, ErrServFail
	case dns.RcodeRefused:
		return nil, ErrRefused
	default:
		if s, ok := dns.RcodeToString[resp.Rcode]; ok {
			return nil, strings.ToLower(s)
		}
		return nil, "rcode " + strconv.Itoa(resp.Rcode)
	}
	return follow(resp, m.Question[0].Name, qtype)
}

// exchange sends m to server over network and waits for the reply, at most
// Timeout and never past ctx: cancelling ctx interrupts the wait at once.
func (r *Resolver) exchange(ctx context.Context, network, server string, m *dns.Msg) (*dns.Msg, error) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout())
	defer cancel()
	c := &dns.Client{Net: network, Timeout: r.timeout(), UDPSize: udpSize}
	conn, err := c.DialContext(ctx, server)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Now()) })
	defer stop()
	resp, _, err := c.ExchangeWithConnContext(ctx, m, conn)
	return resp, err
}

// failure names the error of an exchange.
func failure(ctx context.Context, err error) string {
	if errors.Is(ctx.Err(), context.Canceled) {
		return ErrCanceled
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()) {
		// The caller's deadline, not the query's: the socket's deadline is
		// set to it and may pass before ctx says it is done.
		if expired(ctx) {
			return ErrCanceled
		}
		return ErrTimeout
	}
	return err.Error()
}

// expired reports whether ctx is done or its deadline has passed: a
// socket whose deadline is ctx's may report the timeout before ctx's timer
// makes ctx done.
func expired(ctx context.Context) bool {
	dl, ok := ctx.Deadline()
	return ctx.Err() != nil || ok && !time.Now().Before(dl)
}

// follow returns the records of type qtype owned by qname or by the
// targets of the CNAME chain that starts at it, or why the chain settles
// nothing: a loop ([ErrCNAMELoop]), more than maxChain links
// ([ErrCNAMEChain]), or a chain that stops at a name the reply says nothing
// about ([ErrCNAMEUnresolved]). A resolver follows the chain to its end, so
// a chain it stopped short of the data is a failure to answer, not the
// answer "no such record" (RFC 1034 §3.6.2); only a negative reply (an SOA
// in the authority section, RFC 2308) says the chain's last name has none.
func follow(resp *dns.Msg, qname string, qtype uint16) ([]dns.RR, string) {
	owners := map[string]bool{strings.ToLower(qname): true}
	name := strings.ToLower(qname)
	links := 0
	for {
		var target string
		for _, rr := range resp.Answer {
			if c, ok := rr.(*dns.CNAME); ok && strings.ToLower(c.Hdr.Name) == name {
				target = strings.ToLower(c.Target)
				break
			}
		}
		if target == "" {
			break
		}
		if owners[target] {
			return nil, ErrCNAMELoop
		}
		if links++; links > maxChain {
			return nil, ErrCNAMEChain
		}
		owners[target] = true
		name = target
	}
	var out []dns.RR
	for _, rr := range resp.Answer {
		if rr.Header().Rrtype == qtype && owners[strings.ToLower(rr.Header().Name)] {
			out = append(out, rr)
		}
	}
	if len(out) == 0 && links > 0 && !negative(resp) {
		return nil, ErrCNAMEUnresolved
	}
	return out, ""
}

// negative reports whether the reply is a negative answer: it carries the
// SOA record of the zone in its authority section (RFC 2308 §2.2).
func negative(resp *dns.Msg) bool {
	for _, rr := range resp.Ns {
		if rr.Header().Rrtype == dns.TypeSOA {
			return true
		}
	}
	return false
}

// ParseServer checks a DNS server given as "host:port", "host", "[v6]:port"
// or a bare IPv6 address, and returns it as "host:port" (port 53 when none
// is given). host is an IP address or a host name; an IPv6 zone is kept.
// The error says what is wrong in words for the user.
func ParseServer(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("empty DNS server address")
	}
	if a, err := netip.ParseAddr(strings.Trim(s, "[]")); err == nil {
		return net.JoinHostPort(a.String(), "53"), nil
	}
	host, port, err := net.SplitHostPort(s)
	if err != nil {
		if !strings.Contains(s, ":") && !strings.ContainsAny(s, "[]/ ") {
			host, port = s, "53"
		} else {
			return "", fmt.Errorf("%q is not a DNS server address: give HOST or HOST:PORT, such as 127.0.0.1:53 or [::1]:53", s)
		}
	}
	if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
		return "", fmt.Errorf("%q: port %q is not a number from 1 to 65535", s, port)
	}
	if a, err := netip.ParseAddr(host); err == nil {
		return net.JoinHostPort(a.String(), port), nil
	}
	if _, ok := dns.IsDomainName(host); !ok || host == "" || strings.ContainsAny(host, "/ \\@") ||
		strings.Trim(host, "0123456789.") == "" {
		return "", fmt.Errorf("%q: %q is neither an IP address nor a host name", s, host)
	}
	return net.JoinHostPort(host, port), nil
}
