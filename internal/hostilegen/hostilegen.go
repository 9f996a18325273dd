package hostilegen

import (
	"bufio"
	"fmt"
	"io"
	"net/netip"
	"strconv"
	"time"
)

// Options describe a log.
type Options struct {
	// Lines is the number of log lines, all requests of bots.
	Lines int
	// Agents is the number of distinct bot User-Agents, each of a bot of
	// its own name ("Bot<n>"); 0: one agent, Googlebot's.
	Agents int
	// BotNames, when not 0, is the number of distinct bot names the
	// agents share ("HostileBot<n>"), each agent then differing in its
	// URL only.
	BotNames int
	// Addresses is the number of distinct client addresses (IPv4, or
	// IPv6 with IPv6); 0: one.
	Addresses int
	// IPv6 makes the addresses IPv6, as real IPv6 clients look: a few
	// addresses (random interface identifiers) in each /64, the /64s
	// spread over the /48s of eight /32s (ipv6Addr).
	IPv6 bool
	// PathBytes is the length of every path; 0: short paths. Every line
	// requests a path of its own.
	PathBytes int
	// From is the time of the first line; the lines are a second apart.
	From time.Time
	// Seed varies the random parts.
	Seed uint64
}

// Write writes the log of o to w in the combined format.
func Write(w io.Writer, o Options) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	if o.From.IsZero() {
		o.From = time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	}
	var line, pad []byte
	if o.PathBytes > 0 {
		pad = make([]byte, o.PathBytes)
		for i := range pad {
			pad[i] = 'a' + byte(i%26)
		}
	}
	for i := 0; i < o.Lines; i++ {
		t := o.From.Add(time.Duration(i) * time.Second)
		line = line[:0]
		addr := uint64(0)
		if o.Addresses > 1 {
			addr = mix(o.Seed^0xadd7, uint64(i)) % uint64(o.Addresses)
		}
		if o.IPv6 {
			line = appendIPv6(line, o.Seed, addr)
			line = append(line, " - - "...)
		} else {
			// 10.0.0.0/8 and on: distinct addresses for up to 2^32 - 10<<24.
			a := uint32(10<<24) + uint32(addr)
			line = fmt.Appendf(line, "%d.%d.%d.%d - - ", a>>24, a>>16&255, a>>8&255, a&255)
		}
		line = t.AppendFormat(line, "[02/Jan/2006:15:04:05 -0700] ")
		line = append(line, `"GET `...)
		start := len(line)
		line = append(line, '/')
		// Every path is distinct: a random part then the line number.
		line = strconv.AppendUint(line, mix(o.Seed^0x9a7, uint64(i))%1000, 10)
		line = append(line, "/p"...)
		line = strconv.AppendUint(line, mix(o.Seed^0x9a8, uint64(i)), 36)
		line = append(line, '-')
		line = strconv.AppendInt(line, int64(i), 10)
		if o.PathBytes > 0 {
			line = append(line, '/')
			if n := o.PathBytes - (len(line) - start); n > 0 {
				line = append(line, pad[:n]...)
			}
		}
		line = append(line, ` HTTP/1.1" 200 512 "-" "`...)
		if o.Agents > 0 {
			ua := mix(o.Seed^0x0a, uint64(i)) % uint64(o.Agents)
			tok := mix(o.Seed^0x0b, ua)
			line = append(line, "Mozilla/5.0 (compatible; "...)
			if o.BotNames > 0 {
				line = append(line, "HostileBot"...)
				line = strconv.AppendUint(line, ua%uint64(o.BotNames), 10)
			} else {
				line = append(line, "Bot"...)
				line = strconv.AppendUint(line, tok, 36)
			}
			line = append(line, "/1.0; +http://x"...)
			line = strconv.AppendUint(line, tok>>7, 36)
			line = append(line, ".example/bot)"...)
		} else {
			line = append(line, "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"...)
		}
		line = append(line, "\"\n"...)
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// ipv6PerSubnet is the number of addresses of a /64: a household or a
// server's subnet shows a few addresses (RFC 8981 temporary addresses), not
// one.
const ipv6PerSubnet = 4

// appendIPv6 appends the IPv6 address number n: /64 number n/ipv6PerSubnet,
// in one of eight /32s of 3fff::/20 (the documentation prefix of RFC 9637,
// which no crawler's published ranges hold, so that no request is
// verified), at a random /48 and /64 inside it; its interface identifier
// is mix of n, a bijection, so that distinct n give distinct addresses.
func appendIPv6(b []byte, seed, n uint64) []byte {
	subnet := mix(seed^0x64, n/ipv6PerSubnet)
	hi := uint64(0x3fff)<<48 | (subnet%8)<<32 | subnet>>32&0xffffffff
	lo := mix(seed^0x1d, n)
	return netip.AddrFrom16([16]byte{
		byte(hi >> 56), byte(hi >> 48), byte(hi >> 40), byte(hi >> 32), byte(hi >> 24), byte(hi >> 16), byte(hi >> 8), byte(hi),
		byte(lo >> 56), byte(lo >> 48), byte(lo >> 40), byte(lo >> 32), byte(lo >> 24), byte(lo >> 16), byte(lo >> 8), byte(lo),
	}).AppendTo(b)
}

// mix is SplitMix64's finaliser of seed+x: a cheap, well-spread hash.
func mix(seed, x uint64) uint64 {
	z := seed + x*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Robots is a robots.txt for the logs of Write: a few Disallow rules and a
// Crawl-delay for every bot, and a group of Googlebot's.
const Robots = `User-agent: *
Disallow: /1
Disallow: /22
Allow: /223
Disallow: /*.pdf$
Crawl-delay: 2

User-agent: Googlebot
Disallow: /3
Crawl-delay: 1
`
