package main

import (
	"fmt"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlaudit/crawlaudit/verify"
)

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the version of crawlaudit",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				fmt.Fprintf(e.stdout, "crawlaudit %s\n", toolVersion())
				info, err := verify.BuiltinSnapshot()
				if err != nil {
					return err
				}
				ranges, err := verify.Snapshot()
				if err != nil {
					return err
				}
				fmt.Fprintf(e.stdout, "IP range snapshot made %s (%d bytes), the operators' lists with their history:\n",
					info.Made.UTC().Format(time.RFC3339), info.Size)
				for _, s := range ranges.Info() {
					if s.Versions == 0 {
						fmt.Fprintf(e.stdout, "  %-38s %-10s no list in the snapshot (crawlaudit ranges update)\n", s.Name, s.Operator)
						continue
					}
					fmt.Fprintf(e.stdout, "  %-38s %-10s %3d versions %s … %s\n", s.Name, s.Operator, s.Versions,
						s.First.UTC().Format("2006-01-02"), s.Last.UTC().Format("2006-01-02"))
				}
				return nil
			},
		}
	})
}

// toolVersion returns the module version this binary was built from, or
// "devel".
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
