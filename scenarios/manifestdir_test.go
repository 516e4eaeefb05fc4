package scenarios

import "testing"

// TestManifestDirPosition: the loader keeps where manifestDir is written,
// so that the simulator's check of where it leads (outside the scenario's
// folder) names file:line:col.
func TestManifestDirPosition(t *testing.T) {
	s, err := Parse("t.yaml", []byte(specWith("kubelets:", "  manifestDir: /etc/kubernetes")))
	if err != nil {
		t.Fatal(err)
	}
	k := s.Spec.Kubelets
	if k.ManifestDir != "/etc/kubernetes" || k.ManifestDirPos.String() != "t.yaml:7:18" {
		t.Errorf("manifestDir %q at %v, want /etc/kubernetes at t.yaml:7:18", k.ManifestDir, k.ManifestDirPos)
	}
}
