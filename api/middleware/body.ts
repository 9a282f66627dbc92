import express, { type RequestHandler } from 'express';
import type { Config } from '../../shared/config.js';

/** Clients of the iGMS API do not all send a JSON content type; every body is read as JSON. */
export const jsonBody = (config: Config): RequestHandler =>
  express.json({ limit: config.http.bodyLimitBytes, type: () => true, strict: false });
