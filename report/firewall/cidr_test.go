package firewall

import "testing"

func TestCIDRGolden(t *testing.T) {
	checkGolden(t, "blocklist.cidr.txt", writeFile(t, "cidr", "blocklist.cidr.txt", fixtureList(t)))
}
