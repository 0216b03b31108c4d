// compose-check runs Docker Compose's own loader over a compose file: the
// `docker compose config` of a machine without Docker Compose.
//
// `docker compose config` is Docker Compose v2 handing the file to compose-go
// (the Compose Specification's reference loader: schema validation,
// interpolation with ${VAR:-default} and ${VAR:?error}, merges, normalisation)
// and printing the project it returns. This program does exactly that with the
// compose-go version Docker Compose v2.40.3 pins, so tests/unit/test_compose.py
// checks docker-compose.yml as Compose reads it, without building all of Compose
// (its CLI, BuildKit and Docker client: minutes of compiling on two cores) on a
// machine that has never run the tests. deploy/install-compose-check.sh builds it.
//
// It takes the Compose command line the tests use:
//
//	compose-check [--project-directory DIR] [-f FILE]... [--env-file FILE]... config [-q] [--format json|yaml]
//	compose-check version [--short]
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/compose-spec/compose-go/v2/cli"
)

const loaderModule = "github.com/compose-spec/compose-go/v2"

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(args []string) error {
	var files, envFiles []string
	dir := ""
	for len(args) > 0 {
		switch args[0] {
		case "--project-directory", "-f", "--file", "--env-file":
			if len(args) < 2 {
				return fmt.Errorf("%s needs a value", args[0])
			}
			switch args[0] {
			case "--project-directory":
				dir = args[1]
			case "--env-file":
				envFiles = append(envFiles, args[1])
			default:
				files = append(files, args[1])
			}
			args = args[2:]
		case "version":
			fmt.Println(loaderVersion())
			return nil
		case "config":
			return config(files, envFiles, dir, args[1:])
		default:
			return fmt.Errorf("unknown argument %q (commands: config, version)", args[0])
		}
	}
	return fmt.Errorf("no command (config, version)")
}

func config(files, envFiles []string, dir string, args []string) error {
	quiet, format := false, "yaml"
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-q", "--quiet":
			quiet = true
		case "--format":
			if i+1 >= len(args) {
				return fmt.Errorf("--format needs a value")
			}
			format = args[i+1]
			i++
		default:
			return fmt.Errorf("unknown config argument %q", args[i])
		}
	}
	fns := []cli.ProjectOptionsFn{cli.WithOsEnv, cli.WithEnvFiles(envFiles...), cli.WithDotEnv,
		cli.WithConfigFileEnv, cli.WithDefaultConfigPath}
	if dir != "" {
		fns = append([]cli.ProjectOptionsFn{cli.WithWorkingDirectory(dir)}, fns...)
	}
	options, err := cli.NewProjectOptions(files, fns...)
	if err != nil {
		return err
	}
	project, err := options.LoadProject(context.Background())
	if err != nil {
		return err
	}
	if quiet {
		return nil
	}
	var out []byte
	switch format {
	case "json":
		out, err = project.MarshalJSON()
	case "yaml":
		out, err = project.MarshalYAML()
	default:
		return fmt.Errorf("unknown format %q (json, yaml)", format)
	}
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(out)
	return err
}

// loaderVersion is compose-go's version, read from the build (v2.x: the Compose Specification loader of Compose v2).
func loaderVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == loaderModule {
				return dep.Version[1:]
			}
		}
	}
	return "unknown"
}
