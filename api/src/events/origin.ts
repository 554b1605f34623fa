/** This process, as the origin of the events it publishes to other processes (store-bus.ts). */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";

export const PROCESS_ID = `${hostname()}-${process.pid}-${randomBytes(4).toString("hex")}`;
