package main

// allowHostManifestsHelp is the help of --allow-host-manifests, one flag of
// run and scenarios validate. Without it a scenario reads manifests only
// under its own folder: a scenario is often someone else's, and what the
// kubelets read goes into a recording made to be shared.
const allowHostManifestsHelp = "let spec.kubelets.manifestDir be any folder of this machine (an absolute path, one with .., " +
	"a symbolic link out of the scenario's folder); the recording then holds the pods and the file names read there"
