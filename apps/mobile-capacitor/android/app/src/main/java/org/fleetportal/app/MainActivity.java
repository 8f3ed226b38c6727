package org.fleetportal.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
