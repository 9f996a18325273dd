package report

import (
	"bytes"
	"fmt"
	"net/netip"
	"os"
	"strings"
	"testing"
)

func TestWriteBlocklist(t *testing.T) {
	ips := []string{
		"203.0.113.9",
		"10.0.0.2",
		"2001:db8::1",
		"1.2.3.4; rm -rf /", // shell injection
		"999.1.1.1",         // octet out of range
		"::ffff:1.2.3.4",    // IPv4-mapped: written as IPv4
		"1.2.3.4",           // duplicate of the mapped one
		"9.9.9.9",
		"10.0.0.10",            // numeric, not string, order: after 10.0.0.2
		"2001:DB8:0:0:0:0:0:1", // same as 2001:db8::1, canonicalised
		"fe80::1%eth0",         // zone
		"01.2.3.4",             // leading zero (octal ambiguity)
		" 9.9.9.9",             // surrounding space
		"",                     // empty
		"1.2.3",                // short
		"1.2.3.4\n5.6.7.8",     // newline injection
		"2001:db8::/32",        // a prefix, not an address
		"0.0.0.0",              // unspecified
		"::",                   // unspecified
		"127.0.0.1",            // loopback
		"::1",                  // loopback
		"224.0.0.1",            // multicast
		"ff02::1",              // multicast
		"255.255.255.255",      // broadcast
		"::ffff:127.0.0.1",     // mapped loopback
		"2001:db8:0:1::ff",     // kept
		"1.2.3.4",              // duplicate again
		"Googlebot",            // not an address at all
		"1.2.3.4:8080",         // with a port
		"[2001:db8::1]",        // bracketed
		"100.64.0.1",           // shared address space: a client, kept
	}
	var buf bytes.Buffer
	st, err := WriteBlocklist(&buf, ips, "crawlaudit block list\nclients whose bot made >= 1 disallowed request")
	if err != nil {
		t.Fatal(err)
	}
	want := "# crawlaudit block list\n" +
		"# clients whose bot made >= 1 disallowed request\n" +
		"1.2.3.4\n9.9.9.9\n10.0.0.2\n10.0.0.10\n100.64.0.1\n203.0.113.9\n2001:db8::1\n2001:db8:0:1::ff\n"
	if got := buf.String(); got != want {
		t.Errorf("block list =\n%s\nwant\n%s", got, want)
	}
	wantSt := BlocklistStats{Written: 8, Invalid: 12, NotBlockable: 8, Duplicates: 3}
	if st != wantSt {
		t.Errorf("stats = %+v, want %+v", st, wantSt)
	}
	if st.Dropped() != 20 {
		t.Errorf("Dropped = %d, want 20", st.Dropped())
	}
	if st.Written+st.Dropped()+st.Duplicates != len(ips) {
		t.Errorf("stats %+v do not account for %d inputs", st, len(ips))
	}
}

func TestWriteBlocklistHeaderInjection(t *testing.T) {
	for _, c := range []struct{ name, header, want string }{
		{"LF", "made by crawlaudit\n6.6.6.6", "# made by crawlaudit\n# 6.6.6.6\n"},
		{"CR", "a\r6.6.6.6", "# a\n# 6.6.6.6\n"},
		{"CRLF", "a\r\n6.6.6.6\r\n", "# a\n# 6.6.6.6\n"},
		{"VT FF", "a\v6.6.6.6\fb", "# a\n# 6.6.6.6\n# b\n"},
		{"NEL", "a\u00856.6.6.6", "# a\n# 6.6.6.6\n"},
		{"line separator", "a\u20286.6.6.6\u2029b", "# a\n# 6.6.6.6\n# b\n"},
		{"empty line", "a\n\nb", "# a\n#\n# b\n"},
		{"escape sequence", "bot \x1b[2K\x00", `# bot \x1B[2K\x00` + "\n"},
		{"invalid UTF-8", "ua \xff", `# ua \xFF` + "\n"},
		{"empty", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			var buf bytes.Buffer
			if _, err := WriteBlocklist(&buf, []string{"192.0.2.1"}, c.header); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != c.want+"192.0.2.1\n" {
				t.Errorf("header %q wrote\n%q\nwant\n%q", c.header, got, c.want+"192.0.2.1\n")
			}
			for _, line := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
				if !strings.HasPrefix(line, "#") && line != "192.0.2.1" {
					t.Errorf("header %q produced a non-comment line %q", c.header, line)
				}
			}
		})
	}
}

func TestWriteBlocklistWriteError(t *testing.T) {
	ips := make([]string, 0, 10000)
	for i := range 10000 {
		ips = append(ips, fmt.Sprintf("10.%d.%d.1", i/256, i%256))
	}
	if _, err := WriteBlocklist(&failWriter{}, ips, "h"); err == nil {
		t.Error("write error not reported")
	}
}

func FuzzWriteBlocklist(f *testing.F) {
	f.Add("1.2.3.4", "::ffff:1.2.3.4", "h\n1.1.1.1")
	f.Add("999.1.1.1", "fe80::1%eth0", "\r\u2028")
	f.Fuzz(func(t *testing.T, a, b, header string) {
		var buf bytes.Buffer
		st, err := WriteBlocklist(&buf, []string{a, b, a}, header)
		if err != nil {
			t.Fatal(err)
		}
		if st.Written+st.Dropped()+st.Duplicates != 3 {
			t.Fatalf("stats %+v do not account for 3 inputs", st)
		}
		inputs := map[string]bool{}
		for _, in := range []string{a, b} {
			if addr, err := netip.ParseAddr(in); err == nil {
				inputs[addr.Unmap().String()] = true
			}
		}
		n := 0
		for _, l := range strings.Split(buf.String(), "\n") {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			n++
			if !inputs[l] {
				t.Fatalf("line %q is none of the inputs %q, %q", l, a, b)
			}
		}
		if n != st.Written {
			t.Fatalf("%d address lines, stats say %d", n, st.Written)
		}
	})
}

func ExampleWriteBlocklist() {
	st, err := WriteBlocklist(os.Stdout, []string{"2001:db8::7", "198.51.100.7", "::ffff:192.0.2.1", "1.2.3.4; rm -rf /", "198.51.100.7"},
		"crawlaudit: clients of bots with >= 1 disallowed request\n")
	if err != nil {
		fmt.Println(err)
	}
	fmt.Printf("%+v\n", st)
	// Output:
	// # crawlaudit: clients of bots with >= 1 disallowed request
	// 192.0.2.1
	// 198.51.100.7
	// 2001:db8::7
	// {Written:3 Invalid:1 NotBlockable:0 Duplicates:1}
}
