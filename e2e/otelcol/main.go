// Command otelcol is a minimal OpenTelemetry Collector for make e2e: the
// OTLP receiver (go.opentelemetry.io/collector, v0.165.0) and a small
// exporter that appends every batch of logs it receives to a file as one
// line of OTLP/JSON. It lives in a module of its own so that the project's
// go.mod never gains the Collector's dependencies; the e2e test builds it.
package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	"go.opentelemetry.io/collector/component"
	"go.opentelemetry.io/collector/confmap"
	"go.opentelemetry.io/collector/confmap/provider/fileprovider"
	"go.opentelemetry.io/collector/consumer"
	"go.opentelemetry.io/collector/exporter"
	"go.opentelemetry.io/collector/otelcol"
	"go.opentelemetry.io/collector/pdata/plog"
	"go.opentelemetry.io/collector/receiver"
	"go.opentelemetry.io/collector/receiver/otlpreceiver"
	"go.opentelemetry.io/collector/service/telemetry/otelconftelemetry"
)

type fileConfig struct {
	Path string `mapstructure:"path"`
}

type fileExporter struct {
	path string
	mu   sync.Mutex
	f    *os.File
}

func (e *fileExporter) Start(context.Context, component.Host) error {
	f, err := os.OpenFile(e.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	e.f = f
	return err
}

func (e *fileExporter) Shutdown(context.Context) error {
	if e.f != nil {
		return e.f.Close()
	}
	return nil
}

func (e *fileExporter) Capabilities() consumer.Capabilities { return consumer.Capabilities{} }

func (e *fileExporter) ConsumeLogs(_ context.Context, ld plog.Logs) error {
	b, err := (&plog.JSONMarshaler{}).MarshalLogs(ld)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	_, err = e.f.Write(append(b, '\n'))
	return err
}

func fileFactory() exporter.Factory {
	return exporter.NewFactory(component.MustNewType("jsonfile"),
		func() component.Config { return &fileConfig{} },
		exporter.WithLogs(func(_ context.Context, _ exporter.Settings, cfg component.Config) (exporter.Logs, error) {
			return &fileExporter{path: cfg.(*fileConfig).Path}, nil
		}, component.StabilityLevelDevelopment))
}

func factories() (otelcol.Factories, error) {
	otlp := otlpreceiver.NewFactory()
	file := fileFactory()
	return otelcol.Factories{
		Receivers: map[component.Type]receiver.Factory{otlp.Type(): otlp},
		Exporters: map[component.Type]exporter.Factory{file.Type(): file},
		Telemetry: otelconftelemetry.NewFactory(),
	}, nil
}

func main() {
	set := otelcol.CollectorSettings{
		BuildInfo: component.BuildInfo{Command: "otelcol-e2e", Description: "hermes-hooks e2e collector", Version: "e2e"},
		Factories: factories,
		ConfigProviderSettings: otelcol.ConfigProviderSettings{ResolverSettings: confmap.ResolverSettings{
			ProviderFactories: []confmap.ProviderFactory{fileprovider.NewFactory()},
			DefaultScheme:     "file",
		}},
	}
	if err := otelcol.NewCommand(set).Execute(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
