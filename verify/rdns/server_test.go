package rdns

import (
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/miekg/dns"
)

// testServer is a real DNS server on 127.0.0.1 (UDP on a random port, and
// TCP on the same port when it is free) serving a small zone. It never
// forwards a query anywhere. A name listed in misbehave (or any name, when
// "*" is listed) gets no reply ("timeout": the handler sleeps, at most
// hangFor and never past the server's shutdown, then drops the query),
// SERVFAIL or REFUSED, whatever the type asked.
type testServer struct {
	addr   string
	hasTCP bool // the TCP port was free

	records   map[string][]dns.RR // by lower-case FQDN
	misbehave map[string]string   // lower-case FQDN → "timeout" | "servfail" | "refused"
	delay     time.Duration       // every query waits this long before its answer
	hangFor   time.Duration       // how long a "timeout" handler sleeps

	queries     atomic.Int64 // every query, UDP or TCP
	tcpQueries  atomic.Int64 // answered over TCP
	inflight    atomic.Int64
	maxInflight atomic.Int64
	mu          sync.Mutex
	asked       []string // "name type" of each query
	stop        chan struct{}
}

// newTestServer starts a server for zone (one record per line, in zone
// file syntax with absolute names) and stops it when the test ends.
func newTestServer(t testing.TB, zone string, misbehave map[string]string, delay time.Duration) *testServer {
	t.Helper()
	s := &testServer{
		records:   make(map[string][]dns.RR),
		misbehave: make(map[string]string),
		delay:     delay,
		hangFor:   2 * time.Second,
		stop:      make(chan struct{}),
	}
	for _, line := range strings.Split(zone, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, ";") {
			continue
		}
		rr, err := dns.NewRR(line)
		if err != nil {
			t.Fatalf("test zone: %q: %v", line, err)
		}
		name := strings.ToLower(rr.Header().Name)
		s.records[name] = append(s.records[name], rr)
	}
	for name, how := range misbehave {
		s.misbehave[strings.ToLower(dns.Fqdn(name))] = how
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen: %v", err)
	}
	s.addr = pc.LocalAddr().String()
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: s, NotifyStartedFunc: func() { close(started) }}
	go srv.ActivateAndServe()
	<-started
	// The same port over TCP, for replies truncated over UDP.
	var tcp *dns.Server
	if l, err := net.Listen("tcp", s.addr); err == nil {
		tcpStarted := make(chan struct{})
		tcp = &dns.Server{Listener: l, Handler: s, NotifyStartedFunc: func() { close(tcpStarted) }}
		go tcp.ActivateAndServe()
		<-tcpStarted
		s.hasTCP = true
	}
	t.Cleanup(func() {
		close(s.stop) // wake sleeping handlers: Shutdown waits for them
		srv.Shutdown()
		if tcp != nil {
			tcp.Shutdown()
		}
	})
	return s
}

// ServeDNS answers one query from the zone, as a recursive resolver would:
// CNAMEs are followed inside the zone, 16 links at most (a loop repeats
// its links up to that many).
func (s *testServer) ServeDNS(w dns.ResponseWriter, req *dns.Msg) {
	s.queries.Add(1)
	n := s.inflight.Add(1)
	// A query stops being in flight just before its reply leaves: once the
	// client has the reply it may send the next query at once.
	landed := sync.OnceFunc(func() { s.inflight.Add(-1) })
	defer landed()
	for {
		m := s.maxInflight.Load()
		if n <= m || s.maxInflight.CompareAndSwap(m, n) {
			break
		}
	}
	if len(req.Question) != 1 {
		m := new(dns.Msg)
		m.SetRcode(req, dns.RcodeFormatError)
		landed()
		w.WriteMsg(m)
		return
	}
	q := req.Question[0]
	name := strings.ToLower(q.Name)
	s.mu.Lock()
	s.asked = append(s.asked, name+" "+dns.TypeToString[q.Qtype])
	s.mu.Unlock()
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-s.stop:
		}
	}

	m := new(dns.Msg)
	how, ok := s.misbehave[name]
	if !ok {
		how = s.misbehave["*."] // every other name
	}
	switch how {
	case "timeout":
		select {
		case <-time.After(s.hangFor):
		case <-s.stop:
		}
		return // no reply at all
	case "servfail":
		m.SetRcode(req, dns.RcodeServerFailure)
		landed()
		w.WriteMsg(m)
		return
	case "refused":
		m.SetRcode(req, dns.RcodeRefused)
		landed()
		w.WriteMsg(m)
		return
	}

	m.SetReply(req)
	m.Authoritative = true
	for range 16 {
		rrs, ok := s.records[name]
		if !ok {
			if len(m.Answer) == 0 {
				m.Rcode = dns.RcodeNameError
			}
			break
		}
		var next string
		for _, rr := range rrs {
			switch {
			case rr.Header().Rrtype == q.Qtype:
				m.Answer = append(m.Answer, rr)
			case rr.Header().Rrtype == dns.TypeCNAME:
				m.Answer = append(m.Answer, rr)
				next = strings.ToLower(rr.(*dns.CNAME).Target)
			}
		}
		if next == "" {
			break
		}
		name = next
	}
	if _, udp := w.RemoteAddr().(*net.UDPAddr); udp {
		// As a real server does: what does not fit the client's buffer is
		// cut, with the TC bit set.
		size := dns.MinMsgSize
		if opt := req.IsEdns0(); opt != nil {
			size = int(opt.UDPSize())
		}
		m.Truncate(size)
	} else {
		s.tcpQueries.Add(1)
	}
	landed()
	w.WriteMsg(m)
}

// resolver returns a Resolver that asks s.
func (s *testServer) resolver(timeout time.Duration, concurrency int) *Resolver {
	return &Resolver{
		Server:      s.addr,
		Timeout:     timeout,
		Concurrency: concurrency,
		Now:         func() time.Time { return time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC) },
	}
}
