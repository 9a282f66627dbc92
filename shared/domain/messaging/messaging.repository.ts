/*
 * The repository MessagingService is given by the composition root (shared/app/services.ts):
 * the functions of messages, threads and connectors it uses, as one object.
 */
import { findConnector, upsertConnector, deleteConnector } from './connectors.repository.js';
import { claimStaleMessages, findFinishedMessageUids, findMessage, insertMessage, locateMessage, markDeferred, markFailed, markSending, markSent } from './messages.repository.js';
import { findThread, listThreads, messagesOfThreads, threadOfBooking } from './threads.repository.js';

export const messagingRepository = { findConnector, upsertConnector, deleteConnector, claimStaleMessages, findFinishedMessageUids, findMessage, insertMessage, locateMessage, markDeferred, markFailed, markSending, markSent, findThread, listThreads, messagesOfThreads, threadOfBooking };
export type MessagingRepository = typeof messagingRepository;
