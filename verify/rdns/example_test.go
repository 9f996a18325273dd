package rdns_test

import (
	"fmt"
	"net/netip"

	"github.com/crawlaudit/crawlaudit/verify/rdns"
)

func ExampleAnswer_Check() {
	addr := netip.MustParseAddr("66.249.66.1")
	google := []string{"googlebot.com", "google.com", "googleusercontent.com"}
	answers := []rdns.Answer{
		{Addr: addr, Names: []string{"crawl-66-249-66-1.googlebot.com"},
			Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {addr}}},
		{Addr: addr, Names: []string{"googlebot.com.evil.net"},
			Forward: map[string][]netip.Addr{"googlebot.com.evil.net": {addr}}},
		{Addr: addr, Names: []string{"crawl-66-249-66-1.googlebot.com"},
			Forward: map[string][]netip.Addr{"crawl-66-249-66-1.googlebot.com": {netip.MustParseAddr("66.249.66.99")}}},
		{Addr: addr, Err: "nxdomain"},
		{Addr: addr, Err: "timeout"},
	}
	for _, a := range answers {
		o, name := a.Check(google)
		fmt.Printf("%v %q\n", o, name)
	}
	// Output:
	// confirmed "crawl-66-249-66-1.googlebot.com"
	// refuted "googlebot.com.evil.net"
	// refuted "crawl-66-249-66-1.googlebot.com"
	// refuted ""
	// failed ""
}
