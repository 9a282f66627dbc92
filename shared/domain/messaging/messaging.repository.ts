/*
 * The repository MessagingService is given by the composition root (shared/app/services.ts):
 * the functions of messages, threads and connectors it uses, as one object.
 */
import { findConnector, upsertConnector, deleteConnector } from './connectors.repository.js';
import { appendOutbound, claimStaleMessages, claimUnsent, confirmLiveToken, findFinishedMessageUids, findMessage, insertMessage, markDeferred, markFinished, markSending, markSentMany } from './messages.repository.js';
import { findThread, listThreads, messagesOfThreads, threadOfBooking } from './threads.repository.js';

export const messagingRepository = { findConnector, upsertConnector, deleteConnector, appendOutbound, claimStaleMessages, claimUnsent, confirmLiveToken, findFinishedMessageUids, findMessage, insertMessage, markDeferred, markFinished, markSending, markSentMany, findThread, listThreads, messagesOfThreads, threadOfBooking };
export type MessagingRepository = typeof messagingRepository;
