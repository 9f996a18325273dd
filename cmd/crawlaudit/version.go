package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func init() {
	subcommands = append(subcommands, func(e *env) *cobra.Command {
		return &cobra.Command{
			Use:   "version",
			Short: "Print the version of crawlaudit",
			Args:  cobra.NoArgs,
			RunE: func(cmd *cobra.Command, args []string) error {
				v := "devel"
				if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
					v = bi.Main.Version
				}
				fmt.Fprintf(e.stdout, "crawlaudit %s\n", v)
				return nil
			},
		}
	})
}
